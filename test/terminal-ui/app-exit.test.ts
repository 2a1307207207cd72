import { EventEmitter } from 'node:events'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { openTerminal } from '../../mods/terminal-ui/terminal.js'

const drawn = () => new Promise((resolve) => setImmediate(resolve))

// In-process, over fake streams: what stays on screen when the session ends, without a tmux pane.
describe('the live region left at exit', () => {
  it('shows the state at the end, even when the session ended before a queued redraw ran', async () => {
    const frames: string[] = []
    const stdin = Object.assign(new PassThrough(), { setRawMode: () => stdin })
    const stdout = Object.assign(new EventEmitter(), { columns: 80, rows: 24, write: (t: string) => frames.push(t) })
    const terminal = openTerminal({ stdin: stdin as never, stdout: stdout as never, env: { NO_COLOR: '1' } })
    const { app } = terminal
    app.view.totals.model = 'claude-test'
    app.actions = { submit: () => {}, interrupt: () => {}, exit: () => {}, cycleMode: () => {}, stopTask: () => {} }
    for (const ch of '/exit') app.onKey(ch, { name: ch })
    await drawn()
    expect(frames.join('')).toContain('› /exit')
    // Enter sends it, and the session ends before the event loop turns over (a command answered in microtasks).
    app.onKey('\r', { name: 'return' })
    app.onKey(undefined, { ctrl: true, name: 'c' })
    await terminal.close()
    const left = frames.slice(-2).join('')
    expect(left).not.toContain('/exit')
    expect(left).not.toContain('Press Ctrl+C again')
    expect(left).toContain('claude-test')
  })
})
