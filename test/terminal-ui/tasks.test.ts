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

  it("a background subagent's call that outlives the turn that started it still gets its line when it ends", async () => {
    let written = ''
    const screen = new Screen({ write: (t: string) => (written += t), columns: 120 })
    const view = new MessageView(screen, plain, () => {})
    const msg = (fields: Record<string, unknown>) => view.onMessage({ session_id: 's', uuid: 'u', parent_tool_use_id: null, ...fields } as never)
    msg({ type: 'system', subtype: 'task_started', task_id: 'a1', tool_use_id: 'toolu_agent', description: 'count', is_backgrounded: true })
    const usage = { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }
    msg({ type: 'assistant', parent_tool_use_id: 'toolu_agent', message: { content: [{ type: 'tool_use', id: 'toolu_sub', name: 'Bash', input: { command: 'sleep 4' } }], usage } })
    // The main turn ends while the subagent's call runs.
    msg({ type: 'result', subtype: 'success', is_error: false, result: 'started it', total_cost_usd: 0, terminal_reason: 'completed' })
    expect(view.liveLines().join('\n')).toContain('Bash(sleep 4)')
    msg({ type: 'user', parent_tool_use_id: 'toolu_agent', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_sub', content: '42' }] } })
    await view.settled()
    expect(written).toMatch(/ {2}✔ Bash\(sleep 4\) · ok/)
    // Its end takes any call it left open off the screen.
    msg({ type: 'assistant', parent_tool_use_id: 'toolu_agent', message: { content: [{ type: 'tool_use', id: 'toolu_left', name: 'Bash', input: { command: 'sleep 9' } }], usage } })
    msg({ type: 'system', subtype: 'task_notification', task_id: 'a1', status: 'stopped', summary: 'Agent "count" was stopped' })
    expect(view.liveLines()).toEqual([])
  })

  it('a background start and each task end get a scrollback line', () => {
    const sys = (fields: Record<string, unknown>) => ({ type: 'system', session_id: 's', uuid: 'u', ...fields }) as never
    expect(systemLine(sys({ subtype: 'task_started', task_id: 'a1', description: 'review', is_backgrounded: true }), plain, 80)).toBe('⧉ in the background: review (a1)')
    expect(systemLine(sys({ subtype: 'task_started', task_id: 'a2', description: 'inline', is_backgrounded: false }), plain, 80)).toBeUndefined()
    expect(systemLine(sys({ subtype: 'task_notification', task_id: 'a1', status: 'failed', summary: 'Agent "review" failed' }), plain, 80)).toBe('⧉ Agent "review" failed (a1)')
    expect(systemLine(sys({ subtype: 'task_notification', task_id: 'a1', status: 'completed', summary: 'Found three notes.\n\n- a\n- b' }), plain, 80)).toBe('⧉ Found three notes. (a1)')
  })
})
