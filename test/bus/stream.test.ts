import { describe, expect, it } from 'vitest'
import type { HandlerFailure } from '../../core/bus/types.js'
import type { TurnStepChunk, TurnStepInput, TurnStepResult } from '../../core/events/types.js'
import { hostWith } from '../helpers/host.js'

const step: TurnStepInput = { turnId: 't1', index: 0, model: 'claude-sonnet-4-5', messageCount: 1 }
const result = (answer: string): TurnStepResult => ({ turnId: 't1', index: 0, answer, toolUses: [], stopReason: 'end_turn', usage: null })

async function* core(e: TurnStepInput): AsyncGenerator<TurnStepChunk, TurnStepResult, undefined> {
  yield { kind: 'text', index: 0, text: 'hello ' }
  yield { kind: 'text', index: 0, text: e.model }
  return result(`hello ${e.model}`)
}

async function drain<C, R>(stream: AsyncGenerator<C, R, undefined>): Promise<{ chunks: C[]; result: R }> {
  const chunks: C[] = []
  for (;;) {
    const s = await stream.next()
    if (s.done) return { chunks, result: s.value }
    chunks.push(s.value)
  }
}

const texts = (chunks: TurnStepChunk[]) => chunks.map((c) => (c.kind === 'text' ? c.text : c.kind))

describe('streaming events (turn.step)', () => {
  it('passes through with yield*', async () => {
    const host = await hostWith(['pass', (on) => on('turn.step', async function* (_$, e, next) { return yield* next(e) })])
    const { chunks, result: r } = await drain(host.bus.stream('turn.step', step, core))
    expect(texts(chunks)).toEqual(['hello ', 'claude-sonnet-4-5'])
    expect(r.answer).toBe('hello claude-sonnet-4-5')
  })

  it('rewrites the request and transforms chunks', async () => {
    const host = await hostWith(['upper', (on) => on('turn.step', async function* (_$, e, next) {
      const s = next({ ...e, model: 'claude-haiku-4-5' })
      for await (const c of s) yield c.kind === 'text' ? { ...c, text: c.text.toUpperCase() } : c
      return await s.result
    })])
    const { chunks, result: r } = await drain(host.bus.stream('turn.step', step, core))
    expect(texts(chunks)).toEqual(['HELLO ', 'CLAUDE-HAIKU-4-5'])
    expect(r.answer).toBe('hello claude-haiku-4-5')
  })

  it('answers alone: nothing beneath runs', async () => {
    let coreRan = false
    const host = await hostWith(['canned', (on) => on('turn.step', async function* () {
      yield { kind: 'text', index: 0, text: 'canned' }
      return result('canned')
    })])
    const { chunks } = await drain(host.bus.stream('turn.step', step, async function* (e) { coreRan = true; return yield* core(e) }))
    expect(texts(chunks)).toEqual(['canned'])
    expect(coreRan).toBe(false)
  })

  it('a handler that fails mid-stream is dropped and the rest comes from beneath', async () => {
    const failures: HandlerFailure[] = []
    const host = await hostWith(['flaky', (on) => on('turn.step', async function* (_$, e, next) {
      const s = next(e)
      const first = await s.next()
      if (!first.done) yield first.value
      throw new Error('mid-stream')
    })])
    host.bus.onFailure((f) => failures.push(f))
    const { chunks, result: r } = await drain(host.bus.stream('turn.step', step, core))
    expect(texts(chunks)).toEqual(['hello ', 'claude-sonnet-4-5'])
    expect(r.answer).toBe('hello claude-sonnet-4-5')
    expect(failures[0]).toMatchObject({ mod: 'flaky', outcome: 'kept' })
  })

  it('a handler that throws before next is skipped', async () => {
    const host = await hostWith(['bad', (on) => on('turn.step', async function* () { throw new Error('x') })])
    const { result: r } = await drain(host.bus.stream('turn.step', step, core))
    expect(r.answer).toBe('hello claude-sonnet-4-5')
  })

  it('returning nothing lets the result of next stand', async () => {
    const host = await hostWith(['quiet', (on) => on('turn.step', (async function* (_$: unknown, e: TurnStepInput, next: (e: TurnStepInput) => AsyncGenerator<TurnStepChunk, TurnStepResult>) {
      yield* next(e)
    }) as never)])
    const { result: r } = await drain(host.bus.stream('turn.step', step, core))
    expect(r.answer).toBe('hello claude-sonnet-4-5')
  })

  it('times out a stuck streaming handler without counting time spent reading beneath', async () => {
    const failures: HandlerFailure[] = []
    const host = await hostWith(
      ['stuck', (on) => on('turn.step', async function* () { await new Promise(() => {}); return result('never') }, { budgetMs: 30 })],
    )
    host.bus.onFailure((f) => failures.push(f))
    // The handler never settles: the stream ending at all is its budget at work.
    const { result: r } = await drain(host.bus.stream('turn.step', step, core))
    expect(r.answer).toBe('hello claude-sonnet-4-5')
    expect(failures[0]).toMatchObject({ code: 'MODLOOP_ERR_HANDLER_TIMEOUT' })
  })

  it('a reader that stops early closes the stream: its result says so, and without handlers the core stream ends', async () => {
    let ended = false
    async function* endless(): AsyncGenerator<TurnStepChunk, TurnStepResult, undefined> {
      try {
        for (;;) yield { kind: 'text', index: 0, text: 'x' }
      } finally {
        ended = true
      }
    }
    const host = await hostWith(['pass', (on) => on('turn.step', async function* (_$, e, next) { return yield* next(e) })])
    const beneath = host.bus.stream('turn.step', step, endless)
    const direct = (await hostWith()).bus.stream('turn.step', step, endless)
    for (const s of [beneath, direct]) {
      expect(await s.next()).toEqual({ done: false, value: { kind: 'text', index: 0, text: 'x' } })
      await s.return(undefined as never)
      await expect(s.result).rejects.toThrow('the stream was closed before it ended')
      expect(await s.next()).toMatchObject({ done: true })
    }
    expect(ended).toBe(true)
  })

  it('refuses .catch on a streaming event, saying so', async () => {
    await expect(hostWith(['c', (on) => {
      (on('turn.step', async function* (_$, e, next) { return yield* next(e) }) as unknown as { catch(f: unknown): void }).catch(() => undefined)
    }])).rejects.toMatchObject({ code: 'MODLOOP_ERR_MOD_REGISTER', message: expect.stringContaining('not supported by modloop') })
  })
})
