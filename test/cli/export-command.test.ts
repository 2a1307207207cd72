import { mkdir, mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversationText } from '../../mods/commands/export.js'
import { runCli } from '../helpers/cli.js'
import { runStreaming } from '../faults/stream-session.js'

// `/export [file]` over the SDK's transport and in -p: the built CLI against the fake Messages API.

let dir: string
beforeAll(async () => { dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-export-'))) })
afterAll(() => rm(dir, { recursive: true, force: true }))
// Transcripts go under the test's folder, not the home of whoever runs the tests.
const homeEnv = () => ({ HOME: join(dir, 'home'), MODLOOP_HOME: join(dir, 'home', '.modloop') })

describe('/export', () => {
  it('writes the conversation as plain text: prompts, answers, tool calls with the start of their results, local commands', async () => {
    const cwd = join(dir, 'named')
    await mkdir(cwd)
    const run = await runStreaming(cwd, {
      script: [{ reply: [{ text: 'Let me look.' }, { tool_use: { name: 'Bash', input: { command: 'echo one; echo two' } } }] }, { reply: 'It printed two lines.' }],
      inputs: ['what does it print?', '/context', '/export notes', '/export sub/missing/out.txt'],
    })
    expect(run.code).toBe(0)
    const path = join(cwd, 'notes.txt')
    expect(run.results[2]).toMatchObject({ local_command: 'export', is_error: false, result: `Conversation exported to: ${path}` })
    expect(run.results[3]!.result).toMatch(new RegExp(`^Failed to export the conversation to ${join(cwd, 'sub/missing/out.txt')}: .*ENOENT`))
    const text = await readFile(path, 'utf8')
    expect(text).toMatch(/^> what does it print\?\n\nLet me look\.\n\n\* Bash\(echo one; echo two\)\n\n {2}-> one\n {5}two\n\nIt printed two lines\.\n\n> \/context\n\n {2}Context: /)
    expect(text).not.toContain('system-reminder')
    expect(text).not.toContain('local-command')
    // The export is not printed, so it does not come back into the history as the command's output.
    expect(run.requests).toHaveLength(2)
  })

  it('with no file named, -p writes it in the session folder, named for the time and the first prompt', async () => {
    const cwd = join(dir, 'unnamed')
    await mkdir(cwd)
    const first = await runCli(['-p', 'Fix the parser, please!', '--output-format', 'json'], { script: [{ reply: 'Done.' }], cwd, env: homeEnv() })
    const { session_id } = JSON.parse(first.out) as { session_id: string }
    const r = await runCli(['-p', '/export', '--resume', session_id, '--output-format', 'json'], { script: [], cwd, env: homeEnv() })
    expect(r.code).toBe(0)
    const files = (await readdir(cwd)).filter((f) => f.endsWith('.txt'))
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}-\d{6}-fix-the-parser-please\.txt$/)
    expect(JSON.parse(r.out)).toMatchObject({ result: `Conversation exported to: ${join(cwd, files[0]!)}`, local_command: 'export' })
    expect(await readFile(join(cwd, files[0]!), 'utf8')).toBe('> Fix the parser, please!\n\nDone.\n')
    expect(r.requests).toHaveLength(0)
  })

  it('has nothing to write before the first prompt; a long result is cut to its first lines', async () => {
    const cwd = join(dir, 'empty')
    await mkdir(cwd)
    const r = await runCli(['-p', '/export'], { script: [], cwd, env: homeEnv() })
    expect(r.out.trim()).toBe('Nothing to export: the conversation is empty.')
    expect(await readdir(cwd)).toEqual([])
    const long = Array.from({ length: 8 }, (_, i) => `line ${i + 1}`).join('\n')
    expect(conversationText([{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: long, is_error: true }] }]))
      .toBe('  -> Error: line 1\n     line 2\n     line 3\n     line 4\n     line 5\n     ... (3 more lines)\n')
  })
})
