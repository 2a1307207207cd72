import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { renderPretty } from '../../cli/pretty.js'
import type { SDKMessage } from '../../core/loop/messages.js'
import { runCli } from '../helpers/cli.js'
import { big, summary } from './helpers.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-compaction-cli-')))
  await writeFile(join(dir, 'big.mjs'), `import { z } from 'zod'
export function register(on) {
  on('session.start', async ($, e, next) => {
    await $.tool.register({ name: 'Big', description: 'Returns n characters', isReadOnly: true, input: z.object({ n: z.number(), tag: z.string() }),
      call: (i) => ({ result: '<' + i.tag + '>' + 'x'.repeat(i.n) + '</' + i.tag + '>' }) })
    return next(e)
  })
}
`)
  const compaction = { thresholdTokens: 5_000, keepRecentFraction: 0, microcompact: false }
  await writeFile(join(dir, 'modloop.config.json'), JSON.stringify({ mods: ['./big.mjs', ['compaction', compaction]] }))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('modloop -p with compaction', () => {
  it('text --verbose: a compaction is one note on stderr, with its figures; the answer alone on stdout', async () => {
    const home = await mkdtemp(join(tmpdir(), 'modloop-compaction-home-'))
    try {
      const r = await runCli(['-p', 'go', '--verbose'], { script: [big('r1'), big('r2'), big('r3'), summary('SUMMARY'), { reply: 'done' }], cwd: dir, env: { MODLOOP_HOME: home } })
      expect(r.code).toBe(0)
      expect(r.out).toBe('done\n')
      const notes = r.err.split('\n').filter((l) => l.includes('conversation compacted'))
      expect(notes).toHaveLength(1)
      const [, pre, post] = /conversation compacted \(auto · (\d+) → (\d+) tokens\)/.exec(notes[0]!) ?? []
      expect(Number(pre)).toBeGreaterThanOrEqual(5_000)
      expect(Number(post)).toBeLessThan(Number(pre))
    } finally {
      await rm(home, { recursive: true, force: true })
    }
  })
})

describe('the text rendering of compaction messages', () => {
  const system = (fields: Record<string, unknown>) => ({ type: 'system', session_id: 's', uuid: 'u', ...fields }) as SDKMessage

  it('a boundary is one line, manual or auto, with or without figures', () => {
    expect(renderPretty(system({ subtype: 'compact_boundary', compact_metadata: { trigger: 'manual', pre_tokens: 1200, post_tokens: 300 } }), { color: false }))
      .toBe('— conversation compacted (manual · 1200 → 300 tokens)\n')
    expect(renderPretty(system({ subtype: 'compact_boundary' }), { color: false })).toMatch(/^— conversation compacted \([a-z]+\)\n$/)
  })

  it('a failed compaction says why', () => {
    expect(renderPretty(system({ subtype: 'status', status: null, compact_result: 'failed', compact_error: 'not now' }), { color: false })).toBe('compaction failed: not now\n')
  })
})
