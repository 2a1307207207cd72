import { describe, expect, it } from 'vitest'
import { App } from '../../mods/terminal-ui/app.js'
import { painter } from '../../mods/terminal-ui/color.js'
import { MessageView } from '../../mods/terminal-ui/message-view.js'
import { Screen } from '../../mods/terminal-ui/screen.js'
import { systemLine } from '../../mods/terminal-ui/system-view.js'

const plain = painter({ NO_COLOR: '1' })
const drawn = () => new Promise((resolve) => setImmediate(resolve))

// In-process: the App and its status line as the terminal draws them, without a tmux pane.
describe('background tasks in the terminal', () => {
  it('the status line counts the running background tasks; Ctrl+T picks one to stop', async () => {
    let written = ''
    const screen = new Screen({ write: (t: string) => (written += t), columns: 120 })
    const app = new App(screen, plain, new MessageView(screen, plain, () => {}))
    app.view.totals.model = 'claude-test'
    const stopped: string[] = []
    app.actions = { submit: () => {}, interrupt: () => {}, exit: () => {}, cycleMode: () => {}, stopTask: (id) => stopped.push(id) }
    app.tasks = [
      { task_id: 'a1', task_type: 'local_agent', description: 'review the parser' },
      { task_id: 'bash_1', task_type: 'local_bash', description: 'npm run dev' },
    ]
    app.redraw()
    await drawn()
    expect(written).toContain('2 background tasks (ctrl+t to stop)')
    app.onKey(undefined, { ctrl: true, name: 't' })
    await drawn()
    expect(written).toContain('Stop which background task?')
    expect(written).toContain('npm run dev (shell bash_1)')
    app.onKey('2', { name: '2' })
    await drawn()
    expect(stopped).toEqual(['bash_1'])
  })

  it('a background start and each task end get a scrollback line', () => {
    const sys = (fields: Record<string, unknown>) => ({ type: 'system', session_id: 's', uuid: 'u', ...fields }) as never
    expect(systemLine(sys({ subtype: 'task_started', task_id: 'a1', description: 'review', is_backgrounded: true }), plain, 80)).toBe('⧉ in the background: review (a1)')
    expect(systemLine(sys({ subtype: 'task_started', task_id: 'a2', description: 'inline', is_backgrounded: false }), plain, 80)).toBeUndefined()
    expect(systemLine(sys({ subtype: 'task_notification', task_id: 'a1', status: 'failed', summary: 'Agent "review" failed' }), plain, 80)).toBe('⧉ Agent "review" failed (a1)')
  })
})
