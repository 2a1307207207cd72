import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import bash from '../../mods/bash/index.js'
import { cmd, dump, dumped, json, lastUserTexts, makeBox, notices, run, writeSettings, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const bashCall = (command: string) => ({ tool_use: { id: 'toolu_1', name: 'Bash', input: { command } } })
const replaceWith = (value: unknown) => ({ PostToolUse: [{ matcher: 'Bash', hooks: [cmd(json({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: value } }))] }] })
const bashRun = () => run(box, [{ reply: [bashCall('echo original')] }, { reply: 'ok' }], 'go', { mods: [bash] })

describe('Bash results and settings hooks', () => {
  it('PostToolUseFailure: the error starts with `Exit code N`, then the output', async () => {
    await writeSettings(box, { PostToolUseFailure: [{ hooks: [cmd(dump(box, 'PostToolUseFailure'))] }] })
    await run(box, [{ reply: [bashCall('echo out; echo err >&2; exit 3')] }, { reply: 'ok' }], 'go', { mods: [bash] })
    const [failure] = await dumped(box, 'PostToolUseFailure')
    expect(failure!.error).toBe('Exit code 3\nout\nerr')
  })

  it('updatedToolOutput in Bash\'s shape reads as a command\'s output, not as JSON', async () => {
    await writeSettings(box, replaceWith({ stdout: 'redacted\n', stderr: 'a warning\n', interrupted: false, isImage: false }))
    const r = await bashRun()
    expect(lastUserTexts(r.requests[1]!.body)[0]).toBe('redacted\na warning')
  })

  it('updatedToolOutput that does not fit Bash\'s output is ignored with a warning', async () => {
    await writeSettings(box, replaceWith('just a string'))
    const r = await bashRun()
    expect(lastUserTexts(r.requests[1]!.body)[0]).toBe('original')
    expect(notices(r.messages).join('\n')).toContain("updatedToolOutput does not fit the Bash tool's output and was ignored")
  })
})

describe('updatedToolOutput for Read and Glob', () => {
  const replace = (tool: string, value: unknown) => ({ PostToolUse: [{ matcher: tool, hooks: [cmd(json({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: value } }))] }] })

  it("in Read's shape reads as numbered lines from its start line; another shape is ignored with a warning", async () => {
    const { writeFile } = await import('node:fs/promises')
    const { join } = await import('node:path')
    const read = (await import('../../mods/read/index.js')).default
    const file = join(box.project, 'secret.txt')
    await writeFile(file, 'token=abc\nname=x\n')
    const use = { tool_use: { id: 'toolu_r', name: 'Read', input: { file_path: file } } }
    await writeSettings(box, replace('Read', { type: 'text', file: { filePath: file, content: 'token=***\nname=x', startLine: 1 } }))
    const r = await run(box, [{ reply: [use] }, { reply: 'ok' }], 'go', { mods: [read] })
    expect(lastUserTexts(r.requests[1]!.body)[0]).toBe('     1\ttoken=***\n     2\tname=x')
    await writeSettings(box, replace('Read', { content: 'loose text' }))
    const bad = await run(box, [{ reply: [use] }, { reply: 'ok' }], 'go', { mods: [read] })
    expect(lastUserTexts(bad.requests[1]!.body)[0]).toBe('     1\ttoken=abc\n     2\tname=x')
    expect(notices(bad.messages).join('\n')).toContain("updatedToolOutput does not fit the Read tool's output and was ignored")
  })

  it("in Glob's shape reads as one path a line", async () => {
    const glob = (await import('../../mods/glob/index.js')).default
    await writeSettings(box, replace('Glob', { filenames: ['/a.ts', '/b.ts'], numFiles: 2, truncated: false }))
    const r = await run(box, [{ reply: [{ tool_use: { id: 'toolu_g', name: 'Glob', input: { pattern: '*.nothing' } } }] }, { reply: 'ok' }], 'go', { mods: [glob] })
    expect(lastUserTexts(r.requests[1]!.body)[0]).toBe('/a.ts\n/b.ts')
  })
})
