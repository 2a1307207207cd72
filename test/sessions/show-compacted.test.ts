import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { tempCwd } from './helpers.js'

let cwd: string
beforeAll(async () => {
  cwd = await tempCwd()
  await writeFile(join(cwd, 'big.mjs'), `import { z } from 'zod'
export function register(on) {
  on('session.start', async ($, e, next) => {
    await $.tool.register({ name: 'Big', description: 'Returns n characters', isReadOnly: true, input: z.object({ n: z.number(), tag: z.string() }),
      call: (i) => ({ result: '<' + i.tag + '>' + 'x'.repeat(i.n) + '</' + i.tag + '>' }) })
    return next(e)
  })
}
`)
  const compaction = { thresholdTokens: 5_000, keepRecentFraction: 0.5, microcompact: false }
  await writeFile(join(cwd, 'modloop.config.json'), JSON.stringify({ mods: ['transcripts', './big.mjs', ['compaction', compaction]] }))
})

const big = (tag: string) => ({ reply: [{ tool_use: { name: 'Big', input: { n: 8_000, tag } } }] })

describe('modloop sessions show after a compaction', () => {
  it('labels the messages the compaction kept: they are shown again, not run again', async () => {
    const env = { MODLOOP_HOME: process.env.MODLOOP_HOME }
    const run = await runCli(['-p', 'go', '--output-format', 'json'], { script: [big('r1'), big('r2'), big('r3'), { reply: 'SUMMARY' }, { reply: 'done' }], cwd, env })
    expect(run.code).toBe(0)
    const id = JSON.parse(run.out).session_id as string
    const show = await runCli(['sessions', 'show', id], { script: [], cwd, env })
    expect(show.code).toBe(0)
    const start = show.out.indexOf('kept by the compaction')
    const end = show.out.indexOf('end of what the compaction kept')
    expect(start).toBeGreaterThan(show.out.indexOf('conversation compacted'))
    expect(end).toBeGreaterThan(start)
    const kept = show.out.slice(start, end)
    // The last call, kept, shows where it ran and again inside the label.
    expect(kept).toContain('"tag":"r3"')
    expect(show.out.slice(0, start)).toContain('"tag":"r3"')
    expect(kept).not.toContain('"tag":"r1"')
    expect(show.out.slice(end)).toContain('done')
  })
})
