import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import transcripts from '../../mods/transcripts/index.js'
import { runCli } from '../helpers/cli.js'
import { runScript, toolsMod } from '../loop/helpers.js'

const jsonlFiles = (dir: string): string[] => readdirSync(dir, { recursive: true, withFileTypes: true })
  .filter((d) => d.isFile() && d.name.endsWith('.jsonl')).map((d) => join(d.parentPath, d.name))

describe('message.display', () => {
  it('rewrites what the caller sees, never the history or the transcript', async () => {
    const home = mkdtempSync(join(tmpdir(), 'modloop-display-'))
    const seen: unknown[] = []
    const shout = defineMod({ name: 'shout', register: (on) => on('message.display', async (_$, e, next) => {
      seen.push(e)
      const r = await next(e)
      return { text: r.text.toUpperCase() }
    }) })
    const run = await runScript([
      { reply: [{ text: 'looking' }, { tool_use: { name: 'Echo', input: { text: 'x' } } }] },
      { reply: [{ text: 'secret answer' }] },
      { reply: 'second' },
    ], 'go', { mods: [toolsMod(), transcripts, shout], env: { MODLOOP_HOME: home } })
    const texts = run.messages.filter((m) => m.type === 'assistant').map((m: any) => m.message.content[0].text ?? m.message.content[0].name)
    expect(texts).toEqual(['LOOKING', 'Echo', 'SECRET ANSWER'])
    expect(run.result.result).toBe('SECRET ANSWER')
    expect(seen[0]).toMatchObject({ index: 0, final: true, delta: 'looking', turnId: expect.any(String), messageId: expect.any(String) })
    // The next request sends the original text back to the model.
    expect(JSON.stringify(run.requests[1]!.body.messages)).toContain('"looking"')
    const transcript = jsonlFiles(join(home, 'projects')).filter((f) => f.endsWith(`${run.result.session_id}.jsonl`)).map((f) => readFileSync(f, 'utf8')).join('')
    expect(transcript).toContain('"text":"secret answer"')
    expect(transcript).not.toContain('SECRET ANSWER')
  })

  it('a failing display handler shows the original', async () => {
    const broken = defineMod({ name: 'broken', register: (on) => on('message.display', () => { throw new Error('nope') }) })
    const run = await runScript([{ reply: 'plain' }], 'go', { mods: [broken] })
    expect(run.result.result).toBe('plain')
  })

  it('-p prints the rewritten answer', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'modloop-display-cli-'))
    writeFileSync(join(cwd, 'mask.mjs'), `export default { name: 'mask', register(on) { on('message.display', async (_$, e, next) => ({ text: (await next(e)).text.replace(/\\d/g, '#') })) } }\n`)
    const run = await runCli(['-p', 'go', '--mod', './mask.mjs'], { script: [{ reply: 'pin 1234' }], cwd, env: { MODLOOP_HOME: join(cwd, '.home') } })
    expect(run.err).toBe('')
    expect(run.out).toBe('pin ####\n')
  })
})
