import { appendFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import { big, bigTool, boundaries, compactionWith, summary } from '../compaction/helpers.js'
import { cmd, dumped, dump, makeBox, run, writeSettings, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => {
  vi.unstubAllEnvs()
  await box.remove()
})

const order = () => join(box.out, 'order.log')
const note = (what: string) => `echo ${what} >> ${order()}`

/** Writes `compact_boundary` to the order log when that message is recorded. */
const boundaryNote = () => defineMod({
  name: 'boundary-note',
  register: (on) => on('session.message', (_$, e, next) => {
    if (e.message.type === 'system' && e.message.subtype === 'compact_boundary') appendFileSync(order(), 'compact_boundary\n')
    return next(e)
  }),
})

describe('PostCompact', () => {
  it('fires after the compaction\'s boundary is recorded: PreCompact, compact_boundary, PostCompact', async () => {
    vi.stubEnv('MODLOOP_AUTOCOMPACT_TOKENS', '5000')
    await writeSettings(box, {
      PreCompact: [{ hooks: [cmd(note('PreCompact'))] }],
      PostCompact: [{ hooks: [cmd(`${note('PostCompact')}; ${dump(box, 'PostCompact')}`)] }],
    })
    const r = await run(box, [big('r1'), big('r2'), big('r3'), summary('SUMMARY-ONE'), { reply: 'done' }], 'go', {
      mods: [bigTool, compactionWith({ keepRecentFraction: 0, microcompact: false }), boundaryNote()],
    })
    expect(r.result.result).toBe('done')
    expect(boundaries(r.messages)).toHaveLength(1)
    expect((await readFile(order(), 'utf8')).trim().split('\n')).toEqual(['PreCompact', 'compact_boundary', 'PostCompact'])
    expect((await dumped(box, 'PostCompact'))[0]).toMatchObject({ trigger: 'auto', compact_summary: expect.stringContaining('SUMMARY-ONE') })
  })

  it('does not fire for a compaction core rejects', async () => {
    vi.stubEnv('MODLOOP_AUTOCOMPACT_TOKENS', '5000')
    await writeSettings(box, {
      PreCompact: [{ hooks: [cmd(note('PreCompact'))] }],
      PostCompact: [{ hooks: [cmd(note('PostCompact'))] }],
    })
    // Its answer (before the compaction mod's, which runs last) opens with an assistant message: not a conversation core can install.
    const bad = defineMod({ name: 'bad-compactor', register: (on) => on('session.compact', () => ({ messages: [{ role: 'assistant', content: 'summary without a prompt' }] })) })
    const r = await run(box, [big('r1'), big('r2'), big('r3'), { reply: 'done' }], 'go', { mods: [bigTool, compactionWith({ microcompact: false }), bad, boundaryNote()] })
    expect(r.result.result).toBe('done')
    expect(boundaries(r.messages)).toHaveLength(0)
    const log = (await readFile(order(), 'utf8')).trim().split('\n')
    expect(log.length).toBeGreaterThanOrEqual(1)
    expect(new Set(log)).toEqual(new Set(['PreCompact']))
  })
})

describe('UserPromptSubmit and local commands', () => {
  it('/compact raises no UserPromptSubmit; an ordinary prompt does', async () => {
    await writeSettings(box, { UserPromptSubmit: [{ hooks: [cmd(dump(box, 'UserPromptSubmit'))] }] })
    const compact = await run(box, [summary('SUMMARY')], '/compact', { mods: [compactionWith({ keepRecentFraction: 0, microcompact: false })] })
    expect(compact.result.subtype).toBe('success')
    expect(await dumped(box, 'UserPromptSubmit')).toEqual([])
    await run(box, [{ reply: 'hi' }], 'hello', { mods: [compactionWith({ keepRecentFraction: 0, microcompact: false })] })
    expect((await dumped(box, 'UserPromptSubmit')).map((e) => e.prompt)).toEqual(['hello'])
  })
})
