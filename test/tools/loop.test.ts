import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import bash from '../../mods/bash/index.js'
import edit from '../../mods/edit/index.js'
import glob from '../../mods/glob/index.js'
import grep from '../../mods/grep/index.js'
import read from '../../mods/read/index.js'
import { assertNoDanglingToolUse, runScript } from '../loop/helpers.js'
import { tempDir } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
beforeAll(async () => {
  tmp = await tempDir()
  await writeFile(join(tmp.dir, 'answer.ts'), 'export const answer = 41\n')
  await writeFile(join(tmp.dir, 'notes.md'), 'The answer lives in answer.ts\n')
})
afterAll(() => tmp.remove())

const use = (name: string, input: Record<string, unknown>) => ({ tool_use: { name, input } })
const resultsOf = (body: any) => body.messages.at(-1).content as { type: string; content: string; is_error?: boolean }[]

describe('the built-in tools in a full loop', () => {
  it('Glob + Read + Grep in one response, then Edit, then Bash', async () => {
    const file = join(tmp.dir, 'answer.ts')
    const run = await runScript([
      { reply: [use('Glob', { pattern: '**/*.ts' }), use('Read', { file_path: file }), use('Grep', { pattern: 'answer', output_mode: 'content' })] },
      { reply: [use('Edit', { file_path: file, old_string: '41', new_string: '42' })] },
      { reply: [use('Bash', { command: 'cat answer.ts && echo ok' })] },
      { reply: 'The answer is now 42.' },
    ], 'fix the answer', { cwd: tmp.dir, mods: [read, glob, grep, edit, bash] })

    expect(run.result).toMatchObject({ subtype: 'success', result: 'The answer is now 42.' })
    assertNoDanglingToolUse(run.requests)
    const tools = run.requests[0]!.body.tools.map((t: { name: string }) => t.name)
    expect(tools).toEqual(expect.arrayContaining(['Read', 'Glob', 'Grep', 'Edit', 'Bash', 'BashOutput', 'KillShell']))

    const [globbed, readOut, grepped] = resultsOf(run.requests[1]!.body)
    expect(globbed!.content).toBe(file)
    expect(readOut!.content).toBe('     1\texport const answer = 41')
    expect(grepped!.content.split('\n').sort()).toEqual([`${file}:1:export const answer = 41`, `${join(tmp.dir, 'notes.md')}:1:The answer lives in answer.ts`])
    expect([globbed, readOut, grepped].some((r) => r!.is_error)).toBe(false)

    const [edited] = resultsOf(run.requests[2]!.body)
    expect(edited!.content).toContain('     1\texport const answer = 42')
    const [shell] = resultsOf(run.requests[3]!.body)
    expect(shell!.content).toBe('export const answer = 42\nok')
    expect(await readFile(file, 'utf8')).toBe('export const answer = 42\n')
  })

  it('Edit without a Read first is refused and the model is told to read', async () => {
    const file = join(tmp.dir, 'notes.md')
    const run = await runScript([
      { reply: [use('Edit', { file_path: file, old_string: 'answer', new_string: 'reply' })] },
      { reply: 'ok' },
    ], 'go', { cwd: tmp.dir, model: 'claude-sonnet-4-5', mods: [read, edit] })
    const [refused] = resultsOf(run.requests[1]!.body)
    expect(refused).toMatchObject({ is_error: true, content: expect.stringContaining('Read it first') })
  })
})
