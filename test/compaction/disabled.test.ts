import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { boundaries, mainRequests } from './helpers.js'
import { longProject, ROUNDS, type LongProject } from './long-session.js'

/** A threshold the long session passes after a few rounds: the built-in mod would compact under it. */
const LOW = { MODLOOP_AUTOCOMPACT_TOKENS: '20000' }
const tooLong = { error: { status: 400, message: 'prompt is too long: 210000 tokens > 200000 maximum' } }

let off: LongProject
let on: LongProject
beforeAll(async () => {
  off = await longProject({ extends: 'modloop', mods: [{ name: 'compaction', enabled: false }] })
  on = await longProject({ extends: 'modloop' })
})
afterAll(async () => { await Promise.all([off.remove(), on.remove()]) })

describe('with the compaction mod disabled', () => {
  it(`nothing compacts and nothing is cleared: over ${ROUNDS} rounds of 20 KB results each request holds the one before it`, async () => {
    const script = [...Array.from({ length: ROUNDS }, (_, i) => off.round(i + 1)), { reply: 'done' }]
    const r = await off.run(script, LOW)
    expect(r.code, r.err).toBe(0)
    expect(r.messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'done' })
    expect(boundaries(r.messages)).toEqual([])
    expect(r.messages.filter((m) => m.type === 'system' && m.subtype === 'status')).toEqual([])
    expect(r.requests).toHaveLength(ROUNDS + 1)
    // Cache breakpoints (the prompt-cache mod) move from request to request; the content is what must hold.
    const unmarked = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (k, x: unknown) => (k === 'cache_control' ? undefined : x)))
    const sent = r.requests.map((q) => unmarked(q.body.messages) as unknown[])
    for (let i = 1; i < sent.length; i++) {
      // The history before, message for message, then the new response and its result.
      expect(sent[i]!.slice(0, sent[i - 1]!.length)).toEqual(sent[i - 1])
      expect(sent[i]!.length).toBe(sent[i - 1]!.length + 2)
    }
    const last = JSON.stringify(sent.at(-1))
    for (let i = 1; i <= ROUNDS; i++) expect(last).toContain(`<f${i}>`)
    expect(last).not.toContain('[Old tool result content cleared]')
    expect(last.length).toBeGreaterThan(ROUNDS * 20_000)
  })

  it('a request the API refuses as too long ends the turn as prompt_too_long, with no compaction and no retry', async () => {
    const r = await off.run([off.round(1), tooLong, { reply: 'never' }])
    expect(r.messages.at(-1)).toMatchObject({ type: 'result', is_error: true, terminal_reason: 'prompt_too_long', result: 'Prompt is too long' })
    expect(r.requests).toHaveLength(2)
    expect(boundaries(r.messages)).toEqual([])
  })

  it('with it enabled, "autoCompactEnabled": false in ~/.claude.json (what /config writes) leaves the same session uncompacted', async () => {
    const claude = join(on.dir, 'claude-config')
    await mkdir(claude, { recursive: true })
    await writeFile(join(claude, '.claude.json'), JSON.stringify({ autoCompactEnabled: false }))
    const script = [...Array.from({ length: ROUNDS }, (_, i) => on.round(i + 1, `SUMMARY-${i + 1}`)), { reply: 'done' }]
    const r = await on.run(script, { ...LOW, CLAUDE_CONFIG_DIR: claude })
    expect(r.messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'done' })
    expect(boundaries(r.messages)).toEqual([])
    expect(r.requests).toHaveLength(ROUNDS + 1)
  })

  it('the same session with it enabled compacts under the same threshold', async () => {
    // Every step also carries text, so a summary request answered by any of them gets a summary. Each
    // summary takes a step, and how many there are follows the size of the requests (the tools'
    // schemas among them): spare last steps keep the answer 'done' whatever that count.
    const script = [...Array.from({ length: ROUNDS }, (_, i) => on.round(i + 1, `SUMMARY-${i + 1}`)), ...Array.from({ length: 4 }, () => ({ reply: 'done' }))]
    const r = await on.run(script, LOW)
    expect(r.messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'done' })
    expect(boundaries(r.messages).length).toBeGreaterThan(0)
    expect(r.requests.length).toBeGreaterThan(mainRequests(r.requests).length)
  })
})
