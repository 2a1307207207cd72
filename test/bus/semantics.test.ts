import { describe, expect, it, vi } from 'vitest'
import type { ToolCallInput } from '../../core/events/types.js'
import { hostWith } from '../helpers/host.js'

const call = (tool: string, extra: Record<string, unknown> = {}): ToolCallInput => ({ tool, tool_use_id: 'toolu_1', ...extra })
const run = (e: ToolCallInput) => ({ result: `ran ${e.tool} ${String(e.command ?? '')}`.trim() })

describe('order', () => {
  it('runs handlers in registration order, outermost first, core beneath', async () => {
    const seen: string[] = []
    const host = await hostWith(
      ['a', (on) => on('tool.call', async (_$, e, next) => { seen.push('a>'); const r = await next(e); seen.push('<a'); return r })],
      ['b', (on) => on('tool.call', async (_$, e, next) => { seen.push('b>'); const r = await next(e); seen.push('<b'); return r })],
    )
    await host.bus.emit('tool.call', call('Bash'), (e) => { seen.push('core'); return run(e) })
    expect(seen).toEqual(['a>', 'b>', 'core', '<b', '<a'])
  })

  it('orders by stage, then before/after by mod name', async () => {
    const h = (_$: unknown, e: ToolCallInput, next: (e: ToolCallInput) => Promise<unknown>) => next(e) as never
    const host = await hostWith(
      ['late', (on) => on('tool.call', h, { stage: 100 })],
      ['plain', (on) => on('tool.call', h)],
      ['guard', (on) => on('tool.call', h, { stage: -200 })],
      ['inner', (on) => on('tool.call', h, { after: 'late' , stage: 100 })],
      ['outer', (on) => on('tool.call', h, { before: 'plain' })],
    )
    expect(host.bus.stack('tool.call').map((s) => s.mod)).toEqual(['guard', 'outer', 'plain', 'late', 'inner'])
  })

  it('honours after: registered before the mod it must follow', async () => {
    const h = (_$: unknown, e: ToolCallInput, next: (e: ToolCallInput) => Promise<unknown>) => next(e) as never
    const host = await hostWith(
      ['x', (on) => on('tool.call', h, { after: 'y' })],
      ['y', (on) => on('tool.call', h)],
    )
    expect(host.bus.stack('tool.call').map((s) => s.mod)).toEqual(['y', 'x'])
  })

  it('refuses constraints that contradict stages', async () => {
    const h = (_$: unknown, e: ToolCallInput, next: (e: ToolCallInput) => Promise<unknown>) => next(e) as never
    await expect(hostWith(
      ['y', (on) => on('tool.call', h, { stage: 100 })],
      ['x', (on) => on('tool.call', h, { after: 'y', stage: -100 })],
    )).rejects.toMatchObject({ code: 'MODLOOP_ERR_MOD_REGISTER' })
  })

  it('refuses a before or after that any handler of the other mod breaks, naming both mods', async () => {
    const h = (_$: unknown, e: ToolCallInput, next: (e: ToolCallInput) => Promise<unknown>) => next(e) as never
    // y has a handler on either side of x's place: the first breaks x's before, the last its after.
    const twoSided = (on: Parameters<Parameters<typeof hostWith>[0][1]>[0]) => {
      on('tool.call', h, { stage: -100 })
      on('tool.call', h, { stage: 100 })
    }
    await expect(hostWith(['y', twoSided], ['x', (on) => on('tool.call', h, { before: 'y' })]))
      .rejects.toThrow(/"x" must run before "y", but stages or other constraints put it after/)
    await expect(hostWith(['y', twoSided], ['x', (on) => on('tool.call', h, { after: 'y' })]))
      .rejects.toThrow(/"x" must run after "y", but stages or other constraints put it before/)
    // Both of y's handlers beneath x: its before holds.
    const host = await hostWith(['y', (on) => { on('tool.call', h, { stage: 50 }); on('tool.call', h, { stage: 100 }) }], ['x', (on) => on('tool.call', h, { before: 'y' })])
    expect(host.bus.stack('tool.call').map((s) => s.mod)).toEqual(['x', 'y', 'y'])
  })
})

describe('what a handler can do', () => {
  it('rewrites the event for everything beneath', async () => {
    const host = await hostWith(['safe', (on) => on('tool.call', (_$, e, next) => next({ ...e, command: 'ls -la' }))])
    expect(await host.bus.emit('tool.call', call('Bash', { command: 'ls' }), run)).toEqual({ result: 'ran Bash ls -la' })
  })

  it('answers without running what is beneath', async () => {
    const core = vi.fn(run)
    const below = vi.fn((_$: unknown, e: ToolCallInput, next: (e: ToolCallInput) => Promise<unknown>) => next(e) as never)
    const host = await hostWith(
      ['guard', (on) => on('tool.call', () => ({ deny: 'no' }))],
      ['later', (on) => on('tool.call', below)],
    )
    expect(await host.bus.emit('tool.call', call('Bash'), core)).toEqual({ deny: 'no' })
    expect(core).not.toHaveBeenCalled()
    expect(below).not.toHaveBeenCalled()
  })

  it('post-processes the result from beneath', async () => {
    const host = await hostWith(['redact', (on) => on('tool.call', async (_$, e, next) => {
      const r = await next(e)
      return 'result' in r ? { ...r, result: String(r.result).replace('Bash', '****') } : r
    })])
    expect(await host.bus.emit('tool.call', call('Bash'), run)).toEqual({ result: 'ran ****' })
  })

  it('can retry by calling next again', async () => {
    let attempts = 0
    const host = await hostWith(['retry', (on) => on('tool.call', async (_$, e, next) => {
      const first = await next(e)
      return 'isError' in first && first.isError ? next(e) : first
    })])
    const r = await host.bus.emit('tool.call', call('Read'), () => (++attempts === 1 ? { isError: true, result: 'flaky' } : { result: 'ok' }))
    expect(r).toEqual({ result: 'ok' })
    expect(attempts).toBe(2)
  })

  it('ignores the result and rewrites of observe-only events', async () => {
    const host = await hostWith(['watch', (on) => on('turn.start', (_$, e, next) => {
      void next({ ...e, text: 'changed' })
      return { turnId: 'other' }
    })])
    const core = vi.fn((e: { text: string; turnId: string }) => ({ turnId: e.turnId }))
    expect(await host.bus.emit('turn.start', { text: 'hi', turnId: 't1' }, core)).toEqual({ turnId: 't1' })
    expect(core).toHaveBeenCalledWith({ text: 'hi', turnId: 't1' })
  })

  it('refuses a rewrite of a pinned field, and restores one left out', async () => {
    const failures: string[] = []
    const host = await hostWith(
      ['pin', (on) => on('tool.call', (_$, e, next) => next({ ...e, tool: 'Write' }))],
      ['drop', (on) => on('tool.call', (_$, e, next) => {
        const { tool_use_id: _, ...rest } = e
        return next(rest as ToolCallInput)
      })],
    )
    host.bus.onFailure((f) => failures.push(f.code))
    const seen: ToolCallInput[] = []
    await host.bus.emit('tool.call', call('Bash'), (e) => { seen.push(e); return run(e) })
    expect(failures).toEqual(['MODLOOP_ERR_HANDLER_KIND'])
    expect(seen[0]).toMatchObject({ tool: 'Bash', tool_use_id: 'toolu_1' })
  })

  it('a rewrite-kind event refuses an answer that skips next', async () => {
    const failures: string[] = []
    const host = await hostWith(['rude', (on) => on('turn.complete', () => ({ text: 'mine' }))])
    host.bus.onFailure((f) => failures.push(f.code))
    const r = await host.bus.emit('turn.complete', { answer: 'a', durationMs: 1, isAborted: false, turnId: 't', reason: 'answer' })
    expect(r).toEqual({ text: 'a', usage: undefined })
    expect(failures).toEqual(['MODLOOP_ERR_HANDLER_KIND'])
  })
})

describe('matchers', () => {
  const seenBy = async (matcher: Record<string, unknown>, e: ToolCallInput) => {
    const seen = vi.fn()
    const host = await hostWith(['m', (on) => on('tool.call', matcher as never, (_$, e, next) => { seen(); return next(e) })])
    await host.bus.emit('tool.call', e, run)
    return seen.mock.calls.length === 1
  }

  it.each([
    [{ tool: 'Bash' }, call('Bash'), true],
    [{ tool: 'Bash' }, call('Read'), false],
    [{ tool: /^mcp__github__/ }, call('mcp__github__issue'), true],
    [{ tool: /^mcp__github__/ }, call('mcp__gitlab__issue'), false],
    [{ tool: ['Edit', 'Write'] }, call('Write'), true],
    [{ tool: ['Edit', 'Write'] }, call('Read'), false],
    [{ tool: '*' }, call('Anything'), true],
    [{ tool: 'Bash', command: /rm -rf/ }, call('Bash', { command: 'rm -rf /' }), true],
    [{ tool: 'Bash', command: /rm -rf/ }, call('Bash', { command: 'ls' }), false],
    [{ opts: { deep: true } }, call('X', { opts: { deep: true, other: 1 } }), true],
    [{ opts: { deep: true } }, call('X', { opts: 'deep' }), false],
    [{ tags: 'b' }, call('X', { tags: ['a', 'b'] }), true],
    [{ timeout: 5 }, call('X', { timeout: 5 }), true],
    [{ timeout: 5 }, call('X', { timeout: '5' }), false],
  ])('%o on %o → %s', async (matcher, e, expected) => {
    expect(await seenBy(matcher, e)).toBe(expected)
  })

  it('refuses matchers nested past 8 levels', async () => {
    let deep: Record<string, unknown> = { x: 1 }
    for (let i = 0; i < 9; i++) deep = { x: deep }
    await expect(hostWith(['m', (on) => on('tool.call', deep as never, (_$, e, next) => next(e))])).rejects.toMatchObject({ code: 'MODLOOP_ERR_MOD_REGISTER' })
  })
})
