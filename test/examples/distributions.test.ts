import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadDistribution } from '../../index.js'
import { runCli } from '../helpers/cli.js'
import { example } from './paths.js'

let cwd: string
beforeAll(async () => {
  cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-dist-')))
})
afterAll(() => rm(cwd, { recursive: true, force: true }))

const lines = (out: string) => out.trim().split('\n').map((l) => JSON.parse(l))
const run = (dist: string, script: unknown, prompt = 'go', args: string[] = []) =>
  runCli(['-p', prompt, '--config', example(`distributions/${dist}`), '--output-format', 'stream-json', '--verbose', ...args], { script, cwd })

describe('example distributions', () => {
  it('coding: the default distribution, every built-in tool', async () => {
    // A model offered the task list: the default one plans without a checklist tool.
    const r = await run('coding', [{ reply: 'ready' }], 'go', ['--model', 'claude-sonnet-4-6'])
    expect(r.code).toBe(0)
    const [init] = lines(r.out)
    expect(init.tools).toEqual(expect.arrayContaining(['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate', 'WebFetch', 'Agent']))
    expect(lines(r.out).at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'ready' })
  })

  it('reviewer: read-only tools, plan mode, a review-summary Stop hook from its plugin directory', async () => {
    await writeFile(join(cwd, 'notes.md'), 'Remember the tests.\n')
    const r = await run('reviewer', [
      { reply: [{ tool_use: { name: 'Read', input: { file_path: join(cwd, 'notes.md') } } }, { tool_use: { name: 'Grep', input: { pattern: 'TODO' } } }] },
      { reply: [{ tool_use: { name: 'Write', input: { file_path: 'x.txt', content: 'no' } } }] },
      { reply: 'looks fine' },
    ], 'review this project')
    expect(r.code, r.err).toBe(0)
    const out = lines(r.out)
    expect(out[0].tools).toEqual(['Read', 'Glob', 'Grep', 'ExitPlanMode'])
    // The Write tool is not even loaded: the model's call fails as an unknown tool.
    const writeResult = out.filter((l) => l.type === 'user').at(-1).message.content[0]
    expect(writeResult).toMatchObject({ type: 'tool_result', is_error: true, content: expect.stringContaining('No such tool available: Write') })
    expect(JSON.stringify(r.requests[0]!.body)).toContain('Plan mode is on')
    expect(out.at(-1)).toMatchObject({ type: 'result', result: 'looks fine' })

    const dist = await loadDistribution({ cwd, configPath: example('distributions/reviewer') })
    expect(dist.errors).toEqual([])
    expect(dist.hooks.map((h) => Object.keys(h.hooks))).toEqual([['Stop']])
    // The settings-hooks bridge runs the Stop hook; it read the transcript, and its systemMessage reaches the stream.
    expect(out).toContainEqual(expect.objectContaining({
      type: 'system', subtype: 'informational',
      content: 'Stop says: Review finished: the reviewer read notes.md and searched with grep "TODO"; nothing was changed.',
    }))
    await dist.host.close()
  })

  it('minimal: the loop and Bash only, for embedding', async () => {
    const r = await run('minimal', [
      { reply: [{ tool_use: { name: 'Bash', input: { command: 'echo embedded' } } }] },
      { reply: 'done' },
    ])
    expect(r.code).toBe(0)
    const out = lines(r.out)
    expect(out[0].tools).toEqual(['Bash', 'BashOutput', 'KillShell'])
    expect(out.find((l) => l.type === 'user').message.content[0].content).toContain('embedded')
  })
})
