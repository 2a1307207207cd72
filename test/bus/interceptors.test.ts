import { describe, expect, it } from 'vitest'
import type { TurnStepChunk, TurnStepInput, TurnStepResult } from '../../core/events/types.js'
import type { TraceEntry } from '../../core/bus/bus.js'
import { hostWith } from '../helpers/host.js'

const step: TurnStepInput = { turnId: 't1', index: 0, model: 'claude-sonnet-4-5', messageCount: 1 }

async function* core(): AsyncGenerator<TurnStepChunk, TurnStepResult, undefined> {
  yield { kind: 'text', index: 0, text: 'hi' }
  return { turnId: 't1', index: 0, answer: 'hi', toolUses: [], stopReason: 'end_turn', usage: null }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('tracing through tapable interceptors', () => {
  it('times handlers tapped before and after the listener, and stops on its disposer', async () => {
    const host = await hostWith(
      ['early', (on) => on('prompt.submit', async (_$, e, next) => next(e))],
      ['late', (on) => on('prompt.submit', async (_$, e, next) => next(e))],
    )
    const entries: TraceEntry[] = []
    const stop = host.bus.trace((t) => entries.push(t))
    await host.bus.emit('prompt.submit', { text: 'x', origin: { kind: 'sdk' }, wait: false }, (e) => ({ text: e.text }))
    expect(entries.map((t) => `${t.mod}:${t.event}:${t.outcome}`)).toEqual(['late:prompt.submit:returned', 'early:prompt.submit:returned'])
    stop()
    await host.bus.emit('prompt.submit', { text: 'y', origin: { kind: 'sdk' }, wait: false }, (e) => ({ text: e.text }))
    expect(entries).toHaveLength(2)
  })

  it('times a streaming handler until its stream ends, not at its first call', async () => {
    const host = await hostWith(['slow', (on) => on('turn.step', async function* (_$, e, next) {
      const s = next(e)
      for await (const c of s) {
        await sleep(30)
        yield c
      }
      return await s.result
    })])
    const entries: TraceEntry[] = []
    host.bus.trace((t) => entries.push(t))
    const s = host.bus.stream('turn.step', step, core)
    for await (const _ of s) { /* drain */ }
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({ mod: 'slow', event: 'turn.step', outcome: 'returned' })
    // A lower bound only: the handler slept 30 ms inside its stream, which the entry must include.
    expect(entries[0]!.ms).toBeGreaterThanOrEqual(25)
  })

  it('sees a failing handler as isolation left it: skipped, so returned (the failure is reported on its own)', async () => {
    const host = await hostWith(['bad', (on) => on('prompt.submit', () => { throw new Error('boom') })])
    const entries: TraceEntry[] = []
    host.bus.trace((t) => entries.push(t))
    await host.bus.emit('prompt.submit', { text: 'x', origin: { kind: 'sdk' }, wait: false }, (e) => ({ text: e.text }))
    // Isolation is the innermost interceptor: the failure is skipped there, so timing sees the handler return.
    expect(entries.map((t) => t.outcome)).toEqual(['returned'])
  })
})
