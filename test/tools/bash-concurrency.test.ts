import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ModHost } from '../../core/mod/host.js'
import type { CanUseTool } from '../../core/tools/pipeline.js'
import bashMod from '../../mods/bash/index.js'
import { runScript } from '../loop/helpers.js'
import { permissionsWith, sandbox, type Sandbox } from '../permissions/helpers.js'

let box: Sandbox
beforeAll(async () => {
  box = await sandbox()
  await mkdir(join(box.project, 'sub'))
})
afterAll(() => box.remove())

// Each command records when it started and ended (and where it ran): order and overlap are read from these.
const timed = (middle: string) => `date +%s%N; ${middle}; pwd; date +%s%N`
const READER = timed('sleep 0.4')
const allow: CanUseTool = async (_tool, input) => ({ behavior: 'allow', updatedInput: input })

interface Span { start: bigint; end: bigint; dir: string }

/** Runs one response of Bash calls through the loop, with the permissions mod (which knows the read-only commands). */
async function respond(commands: string[], env: Record<string, string> = {}): Promise<{ ids: string[]; spans: Span[] }> {
  const host = new ModHost({ strict: true })
  await host.add(bashMod, { options: {} })
  await host.add(permissionsWith({ home: box.home, trustStore: join(box.modloopHome, 'trusted.json') }))
  const run = await runScript([
    { reply: commands.map((command, i) => ({ tool_use: { id: `toolu_${i}`, name: 'Bash', input: { command } } })) },
    { reply: 'done' },
  ], 'go', { host, cwd: box.project, canUseTool: allow, env })
  await host.close()
  const results = run.requests[1]!.body.messages.at(-1).content as { tool_use_id: string; content: string }[]
  return {
    ids: results.map((r) => r.tool_use_id),
    spans: results.map((r) => {
      const lines = r.content.split('\n')
      return { start: BigInt(lines[0]!), end: BigInt(lines.at(-1)!), dir: lines.at(-2)! }
    }),
  }
}

const overlap = (a: Span, b: Span) => a.start < b.end && b.start < a.end
const before = (a: Span, b: Span) => a.end <= b.start

describe('Bash calls that only read run side by side, as in Claude Code', () => {
  it('three read-only calls overlap, and their results keep the calls\' order', async () => {
    const { ids, spans } = await respond([READER, timed('sleep 0.4 && git status --short >/dev/null 2>&1 | wc -l'), READER])
    expect(ids).toEqual(['toolu_0', 'toolu_1', 'toolu_2'])
    const [a, b, c] = spans as [Span, Span, Span]
    expect([overlap(a, b), overlap(b, c), overlap(a, c)]).toEqual([true, true, true])
  })

  it('a command writing a file runs alone, between the readers before and after it', async () => {
    const { spans } = await respond([READER, timed('echo x > written.txt; sleep 0.1'), READER])
    const [a, w, c] = spans as [Span, Span, Span]
    expect([before(a, w), before(w, c)]).toEqual([true, true])
    expect(await readFile(join(box.project, 'written.txt'), 'utf8')).toBe('x\n')
  })

  it('a cd runs alone, and the calls after it run where it moved the shell', async () => {
    const { spans } = await respond([READER, `cd sub && ${timed('sleep 0.1')}`, READER])
    const [a, moved, c] = spans as [Span, Span, Span]
    expect([before(a, moved), before(moved, c)]).toEqual([true, true])
    expect([a.dir, moved.dir, c.dir]).toEqual([box.project, join(box.project, 'sub'), join(box.project, 'sub')])
  })

  it('CLAUDE_CODE_MAX_TOOL_USE_CONCURRENCY caps how many run at once', async () => {
    const { spans } = await respond([READER, READER, READER], { CLAUDE_CODE_MAX_TOOL_USE_CONCURRENCY: '2' })
    const [a, b, c] = spans as [Span, Span, Span]
    expect(overlap(a, b)).toBe(true)
    expect(before(a, c) || before(b, c)).toBe(true)
  })
})
