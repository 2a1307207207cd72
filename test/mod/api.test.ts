import { getEventListeners } from 'node:events'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ModApi } from '../../core/mod/api.js'
import { defineMod } from '../../core/mod/define.js'
import { ModHost } from '../../core/mod/host.js'

async function capture(options?: unknown) {
  const logs: string[] = []
  const host = new ModHost({ log: (mod, level, text) => logs.push(`${mod} ${level} ${text}`) })
  let api!: ModApi
  let duringRegister: unknown
  await host.add(defineMod({
    name: 'probe', version: '1.2.3', options: z.object({ n: z.number().default(1) }),
    register: (_on, _opts, $) => {
      api = $
      try {
        $.session.id()
      } catch (err) {
        duringRegister = err
      }
    },
  }), { options, source: '/x/probe.ts', root: '/x' })
  return { host, api: () => api, logs, duringRegister }
}

describe('the $ API', () => {
  it('carries the mod identity, parsed options, and a log that names the mod', async () => {
    const { api, logs } = await capture({ n: 5 })
    expect(api().plugin).toEqual({ name: 'probe', root: '/x', version: '1.2.3' })
    expect(api().options).toEqual({ n: 5 })
    api().log.warn('careful')
    api().ui.log('shown')
    expect(logs).toEqual(['probe warn careful', 'probe info shown'])
    expect(Object.isFrozen(api())).toBe(true)
    expect(Object.isFrozen(api().tool)).toBe(true)
  })

  it('capabilities fail before bind, naming the method', async () => {
    const { duringRegister } = await capture()
    expect(duringRegister).toMatchObject({ code: 'MODLOOP_ERR_NOT_BOUND', message: expect.stringContaining('$.session.id') })
  })

  it('a capability no part of the host serves (a bare host, no session) fails naming it', async () => {
    const { host, api } = await capture()
    host.bind()
    expect(() => api().session.model()).toThrow(expect.objectContaining({ code: 'MODLOOP_ERR_NO_PROVIDER', message: expect.stringContaining('$.session.model') }))
    host.provide({ 'session.model': (mod: string) => `${mod} asked` })
    expect(api().session.model()).toBe('probe asked')
  })

  it('holds only what modloop provides: no namespace or method the mod model names without a counterpart here', async () => {
    const { api } = await capture()
    const $ = api() as unknown as Record<string, Record<string, unknown>>
    for (const absent of ['fs', 'store', 'http', 'process', 'mcp', 'audio', 'telemetry']) expect($[absent], absent).toBeUndefined()
    expect(Object.keys($.ui!).sort()).toEqual(['ask', 'log'])
    expect(Object.keys($.session!)).not.toContain('surfaces')
  })

  it('$.state: any mod reads, only the owner writes, ifVersion is compare-and-set', async () => {
    const { host, api } = await capture()
    host.bind()
    const ref = { plugin: 'probe', key: 'count' }
    expect(api().state.get(ref)).toEqual({ value: undefined, version: 0 })
    expect(api().state.set(ref, 1)).toEqual({ isSet: true, version: 1 })
    expect(api().state.set(ref, 2, { ifVersion: 0 })).toEqual({ isSet: false, version: 1 })
    expect(api().state.get(ref)).toEqual({ value: 1, version: 1 })
    expect(() => api().state.set({ plugin: 'other', key: 'x' }, 1)).toThrow(/only write its own/)
  })

  it('$.clock timers stop when the mod is disposed', async () => {
    const { host, api } = await capture()
    host.bind()
    let fired = 0
    api().clock.every(5, () => fired++)
    const sleeping = api().clock.sleep(10_000)
    await host.unload('probe')
    await expect(sleeping).rejects.toMatchObject({ code: 'MODLOOP_ERR_DISPOSED' })
    const before = fired
    await new Promise((r) => setTimeout(r, 30))
    expect(fired).toBe(before)
    expect(api().signal.aborted).toBe(true)
  })

  it('$.clock timers that are cancelled, have fired or have slept leave no listener on the mod\'s signal', async () => {
    const { host, api } = await capture()
    host.bind()
    const signal = api().signal
    const before = getEventListeners(signal, 'abort').length
    // A scheduler re-arms one timer again and again for the whole session (the cron mod does).
    for (let i = 0; i < 20; i++) api().clock.after(60_000, () => {}).cancel()
    for (let i = 0; i < 20; i++) api().clock.every(60_000, () => {}).cancel()
    await new Promise<void>((resolve) => api().clock.after(1, resolve))
    await api().clock.sleep(1)
    await api().clock.sleep(1, { signal: new AbortController().signal })
    expect(getEventListeners(signal, 'abort')).toHaveLength(before)
    await host.close()
  })

  it('$.clock.every refuses a period below 1 ms, naming the mod', async () => {
    const { host, api } = await capture()
    host.bind()
    for (const ms of [0, -5, Number.NaN]) {
      expect(() => api().clock.every(ms, () => {}), String(ms)).toThrow(expect.objectContaining({ code: 'MODLOOP_ERR_USAGE', mod: 'probe', message: expect.stringContaining('$.clock.every') }))
    }
    api().clock.every(1, () => {}).cancel()
    await host.close()
  })

  it('options that fail the schema name the mod and the field', async () => {
    const host = new ModHost()
    const ok = await host.add(defineMod({ name: 'strict', options: z.object({ limit: z.number().max(10) }), register: () => {} }), { options: { limit: 50 }, source: '/p/strict.ts' })
    expect(ok).toBe(false)
    expect(host.errors[0]).toMatchObject({ code: 'MODLOOP_ERR_MOD_OPTIONS', mod: 'strict', field: 'limit', stage: 'options', file: '/p/strict.ts' })
  })
})
