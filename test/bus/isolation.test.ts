import { getEventListeners } from 'node:events'
import { describe, expect, it, vi } from 'vitest'
import type { HandlerFailure } from '../../core/bus/types.js'
import type { ToolCallInput, ToolCheckInput } from '../../core/events/types.js'
import { hostWith } from '../helpers/host.js'

const call = (tool = 'Bash'): ToolCallInput => ({ tool, tool_use_id: 'toolu_1' })
const run = (e: ToolCallInput) => ({ result: `ran ${e.tool}` })
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function failuresOf(host: Awaited<ReturnType<typeof hostWith>>) {
  const failures: HandlerFailure[] = []
  host.bus.onFailure((f) => failures.push(f))
  return failures
}

describe('isolation', () => {
  it('skips a handler that throws before next: what is beneath runs in its place', async () => {
    const after = vi.fn((_$: unknown, e: ToolCallInput, next: (e: ToolCallInput) => Promise<unknown>) => next(e) as never)
    const host = await hostWith(
      ['broken', (on) => on('tool.call', () => { throw new Error('boom') })],
      ['fine', (on) => on('tool.call', after)],
    )
    const failures = await failuresOf(host)
    expect(await host.bus.emit('tool.call', call(), run)).toEqual({ result: 'ran Bash' })
    expect(after).toHaveBeenCalledOnce()
    expect(failures).toMatchObject([{ code: 'MODLOOP_ERR_HANDLER_THROW', mod: 'broken', event: 'tool.call', outcome: 'skipped' }])
    expect(failures[0]!.message).toContain('broken: tool.call handler failed: boom')
  })

  it('keeps the result of next when a handler fails after it', async () => {
    const core = vi.fn(run)
    const host = await hostWith(['late-fail', (on) => on('tool.call', async (_$, e, next) => {
      await next(e)
      throw new Error('after')
    })])
    const failures = await failuresOf(host)
    expect(await host.bus.emit('tool.call', call(), core)).toEqual({ result: 'ran Bash' })
    expect(core).toHaveBeenCalledOnce()
    expect(failures[0]).toMatchObject({ outcome: 'kept' })
  })

  it('a failure beneath handlers that only pass on next() goes up as it is, blamed on none of them', async () => {
    const pass = (_$: unknown, e: ToolCallInput, next: (e: ToolCallInput) => Promise<unknown>) => next(e) as never
    const host = await hostWith(
      ['outer', (on) => on('tool.call', pass)],
      ['middle', (on) => on('tool.call', async (_$, e, next) => await next(e))],
      ['own', (on) => on('tool.call', async (_$, e, next) => {
        try {
          return await next(e)
        } catch (err) {
          throw new Error(`own view of ${(err as Error).message}`)
        }
      })],
    )
    const failures = await failuresOf(host)
    await expect(host.bus.emit('tool.call', call(), () => { throw new Error('core broke') })).rejects.toThrow('core broke')
    // Only the handler that threw an error of its own is reported; the two that passed it on are not.
    expect(failures.map((f) => [f.mod, f.outcome, f.message])).toEqual([['own', 'kept', 'own: tool.call handler failed: own view of core broke']])
  })

  it('treats a wrong-shaped or missing result as a failure', async () => {
    const host = await hostWith(
      ['shape', (on) => on('tool.call', () => ({ nonsense: true }) as never)],
      ['forgot', (on) => on('tool.call', (async (_$: unknown, e: ToolCallInput, next: (e: ToolCallInput) => Promise<unknown>) => { await next(e) }) as never)],
    )
    const failures = await failuresOf(host)
    expect(await host.bus.emit('tool.call', call(), run)).toEqual({ result: 'ran Bash' })
    expect(failures.map((f) => [f.mod, f.code, f.outcome])).toEqual([
      ['shape', 'MODLOOP_ERR_HANDLER_SHAPE', 'skipped'],
      ['forgot', 'MODLOOP_ERR_HANDLER_SHAPE', 'kept'],
    ])
  })

  it('times out a handler past its own-time budget and runs what is beneath', async () => {
    const host = await hostWith(['slow', (on) => on('tool.call', async () => { await new Promise(() => {}); return { deny: 'late' } }, { budgetMs: 30 })])
    const failures = await failuresOf(host)
    // The handler never settles: the dispatch ending at all is its budget at work.
    expect(await host.bus.emit('tool.call', call(), run)).toEqual({ result: 'ran Bash' })
    expect(failures[0]).toMatchObject({ code: 'MODLOOP_ERR_HANDLER_TIMEOUT', mod: 'slow', outcome: 'skipped' })
  })

  it('a next() called after the handler timed out or answered is refused: what is beneath runs once', async () => {
    const core = vi.fn(run)
    // Each late next() is read as it is made: a rejection left unread until later would be reported as unhandled.
    const late: Promise<unknown>[] = []
    const settle = (p: Promise<unknown>) => late.push(p.then(() => 'ran', (err: { code: string; mod: string }) => [err.code, err.mod]))
    const host = await hostWith(
      ['slow', (on) => on('tool.call', async (_$, e, next) => {
        await sleep(60)
        settle(next(e))
        return { deny: 'late' }
      }, { budgetMs: 20 })],
      ['denies', (on) => on('tool.call', (_$, e, next) => {
        setTimeout(() => settle(next(e)), 10)
        return { deny: 'no' }
      })],
    )
    expect(await host.bus.emit('tool.call', call(), core)).toEqual({ deny: 'no' })
    await vi.waitFor(() => expect(late).toHaveLength(2), { timeout: 10_000 })
    const refused = await Promise.all(late)
    expect(refused).toEqual(expect.arrayContaining([['MODLOOP_ERR_NEXT', 'denies'], ['MODLOOP_ERR_NEXT', 'slow']]))
    expect(core).not.toHaveBeenCalled()
  })

  it('does not count time spent awaiting next against the budget', async () => {
    const host = await hostWith(['patient', (on) => on('tool.call', async (_$, e, next) => next(e), { budgetMs: 30 })])
    const failures = await failuresOf(host)
    const r = await host.bus.emit('tool.call', call(), async (e) => { await sleep(120); return run(e) })
    expect(r).toEqual({ result: 'ran Bash' })
    expect(failures).toEqual([])
  })

  it('aborts next.signal when the budget runs out', async () => {
    let signal: AbortSignal | undefined
    const host = await hostWith(['slow', (on) => on('tool.call', async (_$, _e, next) => {
      signal = next.signal
      await sleep(500)
      return { deny: 'late' }
    }, { budgetMs: 20 })])
    await host.bus.emit('tool.call', call(), run)
    expect(signal?.aborted).toBe(true)
  })

  it('next.signal follows the dispatch signal, and lets go of it once the handler is done', async () => {
    const outer = new AbortController()
    const seen: AbortSignal[] = []
    const host = await hostWith(['reader', (on) => on('tool.call', async (_$, e, next) => { seen.push(next.signal); return next(e) })])
    // A turn's signal outlives its dispatches: none may leave a listener on it.
    for (let i = 0; i < 20; i++) await host.bus.emit('tool.call', call(), run, { signal: outer.signal })
    expect(getEventListeners(outer.signal, 'abort')).toHaveLength(0)
    let live: AbortSignal | undefined
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    const host2 = await hostWith(['holder', (on) => on('tool.call', async (_$, e, next) => { live = next.signal; await held; return next(e) })])
    const pending = host2.bus.emit('tool.call', call(), run, { signal: outer.signal })
    await vi.waitFor(() => expect(live).toBeDefined())
    outer.abort(new Error('stop'))
    expect(live!.aborted).toBe(true)
    release()
    await pending
    expect(seen.every((s) => !s.aborted)).toBe(true)
  })

  it('one failing mod never stops another', async () => {
    const host = await hostWith(
      ['a', (on) => on('tool.call', () => { throw new Error('a') })],
      ['b', (on) => on('tool.call', () => { throw new Error('b') })],
      ['c', (on) => on('tool.call', (_$, e, next) => next({ ...e, command: 'c' }))],
    )
    const failures = await failuresOf(host)
    expect(await host.bus.emit('tool.call', call(), (e) => ({ result: e.command }))).toEqual({ result: 'c' })
    expect(failures.map((f) => f.mod)).toEqual(['a', 'b'])
  })
})

describe('fail closed and catch', () => {
  const check: ToolCheckInput = { tool: 'Bash', input: { command: 'ls' } }

  it('a gate handler declared failClosed denies when it fails', async () => {
    const host = await hostWith(['guard', (on) => on('tool.check', () => { throw new Error('policy unreadable') }, { failClosed: true })])
    const failures = await failuresOf(host)
    const r = await host.bus.emit('tool.check', check)
    expect(r).toMatchObject({ decision: 'deny' })
    expect((r as { reason: string }).reason).toContain('policy unreadable')
    expect(failures[0]).toMatchObject({ outcome: 'closed', mod: 'guard' })
  })

  it('refuses failClosed on an event that cannot fail closed', async () => {
    await expect(hostWith(['x', (on) => on('turn.start', (_$, e, next) => next(e), { failClosed: true })])).rejects.toMatchObject({ code: 'MODLOOP_ERR_MOD_REGISTER' })
  })

  it('a .catch handler decides the outcome of its own failure', async () => {
    const host = await hostWith(['guard', (on) => {
      on('tool.call', { tool: 'Bash' }, () => { throw new Error('boom') })
        .catch((_$, e, next) => (next.called ? next(e) : { deny: `guard failed: ${next.error.message}` }))
    }])
    expect(await host.bus.emit('tool.call', call(), run)).toEqual({ deny: 'guard failed: boom' })
  })

  it('catch gets a replay-safe next when the handler had called it', async () => {
    const core = vi.fn(run)
    const host = await hostWith(['guard', (on) => {
      on('tool.call', async (_$, e, next) => { await next(e); throw new Error('after') })
        .catch(async (_$, e, next) => {
          expect(next.called).toBe(true)
          const r = await next(e)
          return r
        })
    }])
    expect(await host.bus.emit('tool.call', call(), core)).toEqual({ result: 'ran Bash' })
    expect(core).toHaveBeenCalledOnce()
  })

  it('a catch that returns nothing means the handler is absent', async () => {
    const host = await hostWith(['guard', (on) => {
      on('tool.call', () => { throw new Error('x') }).catch(() => undefined)
    }])
    expect(await host.bus.emit('tool.call', call(), run)).toEqual({ result: 'ran Bash' })
  })

  it('refuses a second .catch', async () => {
    await expect(hostWith(['g', (on) => {
      on('tool.call', (_$, e, next) => next(e)).catch(() => undefined).catch(() => undefined)
    }])).rejects.toMatchObject({ code: 'MODLOOP_ERR_MOD_REGISTER' })
  })
})

describe('dispose', () => {
  it('a disposed handler is gone from later dispatches', async () => {
    let off: () => void = () => {}
    const seen = vi.fn()
    const host = await hostWith(['m', (on) => { off = on('tool.call', (_$, e, next) => { seen(); return next(e) }) }])
    await host.bus.emit('tool.call', call(), run)
    off()
    await host.bus.emit('tool.call', call(), run)
    expect(seen).toHaveBeenCalledOnce()
    expect(host.bus.stack('tool.call')).toEqual([])
  })

  it('an in-flight dispatch keeps its handler set, and a disposed handler it reaches is a no-op', async () => {
    const seen: string[] = []
    let release!: () => void
    const gate = new Promise<void>((r) => { release = r })
    const host = await hostWith(
      ['first', (on) => on('tool.call', async (_$, e, next) => { seen.push('first'); await gate; return next(e) })],
      ['second', (on) => on('tool.call', (_$, e, next) => { seen.push('second'); return next(e) })],
    )
    const pending = host.bus.emit('tool.call', call(), (e) => { seen.push('core'); return run(e) })
    await host.unload('second')
    release()
    await pending
    expect(seen).toEqual(['first', 'core'])
  })

  it('tears mods down in reverse load order', async () => {
    const order: string[] = []
    const { ModHost } = await import('../../core/mod/host.js')
    const host = new ModHost()
    for (const name of ['a', 'b', 'c']) await host.add({ name, register: () => () => { order.push(name) } })
    host.bind()
    await host.close()
    expect(order).toEqual(['c', 'b', 'a'])
  })
})
