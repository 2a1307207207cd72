import { EventEmitter } from 'node:events'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { openTerminal } from '../../mods/terminal-ui/terminal.js'

// In-process, over fake streams: the bytes a terminal sends for a bracketed paste, then Enter.
describe('a pasted text', () => {
  it('keeps its tabs as indentation (four spaces) instead of taking them for completion', async () => {
    const stdin = Object.assign(new PassThrough(), { setRawMode: () => stdin, isTTY: true })
    const stdout = Object.assign(new EventEmitter(), { columns: 80, rows: 24, write: () => true })
    const terminal = openTerminal({ stdin: stdin as never, stdout: stdout as never, env: { NO_COLOR: '1' } })
    const sent: string[] = []
    terminal.app.actions = { submit: (text) => void sent.push(text), interrupt: () => {}, exit: () => {}, cycleMode: () => {}, stopTask: () => {} }
    stdin.write('\u001b[200~/fix this:\n\tif x {\n\t\treturn\n\t}\u001b[201~')
    await new Promise((resolve) => setImmediate(resolve))
    stdin.write('\r')
    await new Promise((resolve) => setImmediate(resolve))
    await terminal.close()
    expect(sent).toEqual(['/fix this:\n    if x {\n        return\n    }'])
  })
})
