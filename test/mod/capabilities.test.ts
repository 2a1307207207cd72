import { describe, expect, expectTypeOf, it } from 'vitest'
import { isModloopError } from '../../core/errors.js'
import type { ModApi } from '../../core/mod/api.js'
import { defineMod } from '../../core/mod/define.js'
import { ModHost } from '../../core/mod/host.js'

interface GreeterApi { greet(name: string): string }

declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    'test.greeter': GreeterApi
  }
}

const greeter = defineMod({
  name: 'greeter',
  provides: ['test.greeter'],
  register: (_on, _o, $) => $.capability.provide('test.greeter', { greet: (name) => `hello ${name}` }),
})

function user(name: string, use: 'required' | 'optional', seen: { api?: unknown }) {
  return defineMod({
    name,
    uses: { 'test.greeter': use },
    register: (_on, _o, $) => {
      seen.api = $.capability.use('test.greeter')
    },
  })
}

describe('capabilities', () => {
  it('a mod provides a named API and another uses it, typed from the declaration merge', async () => {
    const host = new ModHost()
    const seen: { api?: unknown } = {}
    await host.add(greeter)
    await host.add(user('polite', 'required', seen))
    host.bind()
    expect(host.errors).toEqual([])
    expect((seen.api as GreeterApi).greet('you')).toBe('hello you')
    expect(host.capabilities.get('test.greeter')?.greet('core')).toBe('hello core')
    expectTypeOf(host.capabilities.get('test.greeter')).toEqualTypeOf<GreeterApi | undefined>()
    const $ = host.get('polite')!.$
    expectTypeOf($.capability.use('test.greeter')).toEqualTypeOf<GreeterApi | undefined>()
    // @ts-expect-error a capability no declaration names
    expect(() => $.capability.use('test.nobody')).toThrow(/needs "test.nobody" in the mod's uses/)
  })

  it('a required capability no loaded mod provides drops the user at bind with a coded error naming both mods', async () => {
    const host = new ModHost()
    host.know(greeter)
    await host.add(user('needy', 'required', {}))
    host.bind()
    const [error] = host.errors
    expect(isModloopError(error, 'MODLOOP_ERR_CAPABILITY_MISSING')).toBe(true)
    expect(error).toMatchObject({ mod: 'needy', field: 'test.greeter' })
    expect(error!.message).toMatch(/needy: uses the "test.greeter" capability, which no loaded mod provides \(the greeter mod provides it normally/)
    expect(host.get('needy')!.status).toBe('failed')
  })

  it('an optional use loads without its provider and reads undefined', async () => {
    const host = new ModHost()
    const seen: { api?: unknown } = { api: 'unset' }
    await host.add(user('relaxed', 'optional', seen))
    host.bind()
    expect(host.errors).toEqual([])
    expect(seen.api).toBeUndefined()
  })

  it('providing or using what the definition does not declare is a coded error; two providers of one name are refused', async () => {
    const host = new ModHost()
    await host.add(defineMod({ name: 'sneaky', register: (_on, _o, $) => $.capability.provide('test.greeter', { greet: () => '' }) }))
    expect(host.errors[0]).toMatchObject({ code: 'MODLOOP_ERR_MOD_REGISTER', mod: 'sneaky' })
    expect(host.errors[0]!.message).toMatch(/needs "test.greeter" in the mod's provides/)
    const twice = new ModHost()
    await twice.add(greeter)
    await twice.add(defineMod({ name: 'rival', provides: ['test.greeter'], register: () => {} }))
    twice.bind()
    expect(twice.errors[0]).toMatchObject({ code: 'MODLOOP_ERR_CAPABILITY', mod: 'rival', field: 'test.greeter' })
  })

  it('a disposed provider takes its capability with it', async () => {
    const host = new ModHost()
    await host.add(greeter)
    host.bind()
    await host.unload('greeter')
    expect(host.capabilities.get('test.greeter')).toBeUndefined()
  })
})
