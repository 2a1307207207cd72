import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { autocompactEnv } from '../../cli/autocompact-flag.js'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-autocompact-')))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

// A first round that reports 90,000 tokens of context: past a 100k window's threshold, far under the model's own.
const script = [
  { reply: [{ tool_use: { name: 'Bash', input: { command: 'true' } } }], usage: { input_tokens: 90_000 } },
  { reply: 'SUMMARY' },
  { reply: 'done' },
]
const cli = (args: string[]) => runCli(['-p', 'go', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions', ...args], { script, cwd: dir, env: { HOME: dir }, stdin: '' })
const boundaries = (out: string) => out.split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((m) => m.subtype === 'compact_boundary')

describe('--autocompact sets the auto compaction window, as in Claude Code', () => {
  it('--autocompact 100k compacts a context the default window leaves alone', async () => {
    const r = await cli(['--autocompact', '100k'])
    expect(r.code).toBe(0)
    expect(boundaries(r.out)).toHaveLength(1)
  })

  it('reads 200000, 500k, 1m and the shorthand 200; the variable wins; less than 100k is refused', () => {
    const window = (v: string, env = {}) => autocompactEnv(v, env).CLAUDE_CODE_AUTO_COMPACT_WINDOW
    expect([window('200000'), window('500k'), window('1m'), window('200'), window('0.1m')]).toEqual(['200000', '500000', '1000000', '200000', '100000'])
    expect(window('auto')).toBeUndefined()
    expect(window('300k', { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '150000' })).toBe('150000')
    for (const bad of ['99', '5000', '1.5k', 'foo']) expect(() => autocompactEnv(bad, {})).toThrow(/at least 100k/)
  })
})
