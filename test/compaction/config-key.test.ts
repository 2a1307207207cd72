import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { shapeProblems } from '../helpers/sdk-shapes.js'

let dir: string
let home: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-compaction-key-')))
  home = join(dir, 'home')
  await mkdir(join(dir, 'project'))
  await mkdir(join(dir, 'own'))
  await writeFile(join(dir, 'project', 'modloop.config.json'), JSON.stringify({ extends: 'modloop', compaction: { thresholdTokens: 3000 } }))
  // A `mods` entry's own options win over the top-level key.
  await writeFile(join(dir, 'own', 'modloop.config.json'), JSON.stringify({ extends: 'modloop', compaction: { thresholdTokens: 3000, recentFiles: 2 }, mods: [['compaction', { thresholdTokens: 9000 }]] }))
  // About 4,000 tokens at four characters a token: one Read of it passes the threshold.
  await writeFile(join(dir, 'project', 'big.txt'), Array.from({ length: 300 }, (_, i) => `line ${i} ${'x'.repeat(44)}`).join('\n'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const compactionOptions = (out: string) => (JSON.parse(out).mods as { name: string; options: Record<string, unknown> }[]).find((m) => m.name === 'compaction')?.options

describe('the config\'s top-level compaction key', () => {
  it('becomes the compaction mod\'s options (modloop mods list --json)', async () => {
    const r = await runCli(['mods', 'list', '--json'], { script: [], cwd: join(dir, 'project'), env: { MODLOOP_HOME: home } })
    expect(compactionOptions(r.out)).toMatchObject({ thresholdTokens: 3000 })
  })

  it('a mods entry for compaction keeps its own options over it', async () => {
    const r = await runCli(['mods', 'list', '--json'], { script: [], cwd: join(dir, 'own'), env: { MODLOOP_HOME: home } })
    expect(compactionOptions(r.out)).toMatchObject({ thresholdTokens: 9000, recentFiles: 2 })
  })

  it('sets when a -p run compacts', async () => {
    const script = join(dir, 'script.json')
    await writeFile(script, JSON.stringify([
      // The first request's count is given small, so only the Read result fills the context.
      { reply: [{ tool_use: { name: 'Read', input: { file_path: join(dir, 'project', 'big.txt') } } }], usage: { input_tokens: 100 } },
      { reply: 'SUMMARY: read big.txt' },
      { reply: 'done' },
    ]))
    const r = await runCli(['-p', 'go', '--script', script, '--output-format', 'stream-json', '--verbose'], { script: [], cwd: join(dir, 'project'), env: { MODLOOP_HOME: home } })
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'done' })
    // The default distribution's stream, compaction messages included, in the spec's shapes.
    expect(shapeProblems(lines)).toEqual([])
    const boundary = lines.find((l) => l.type === 'system' && l.subtype === 'compact_boundary')
    expect(boundary).toMatchObject({ compact_metadata: { trigger: 'auto' } })
    expect(boundary.compact_metadata.pre_tokens).toBeGreaterThanOrEqual(3000)
  })
})
