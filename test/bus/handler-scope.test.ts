import { describe, expect, it } from 'vitest'
import { runningHandler, type HandlerRef } from '../../core/bus/handler-scope.js'
import { ModHost } from '../../core/mod/host.js'
import { defineMod } from '../../core/mod/define.js'

const submit = { text: 'x', origin: { kind: 'sdk' as const }, wait: false }

/** Where each mod's handler saw itself: in its own code, in a timer it set, and beneath its next. */
async function seen(mods: { name: string; attributed: boolean }[]) {
  const host = new ModHost()
  const saw: Record<string, (HandlerRef | undefined)[]> = {}
  for (const { name, attributed } of mods) {
    saw[name] = []
    await host.add(defineMod({
      name,
      register(on) {
        saw[name]!.push(runningHandler())
        on('prompt.submit', async (_$, e, next) => {
          saw[name]!.push(runningHandler())
          await new Promise((resolve) => setTimeout(() => resolve(saw[name]!.push(runningHandler())), 1))
          return next(e)
        })
      },
    }), { attributed })
  }
  host.bind()
  let beneath: HandlerRef | undefined | null = null
  await host.bus.emit('prompt.submit', submit, (e) => {
    beneath = runningHandler()
    return { text: e.text }
  })
  const brief = (r: HandlerRef | undefined) => (r ? `${r.mod}:${r.event}` : '-')
  return { saw: Object.fromEntries(Object.entries(saw).map(([k, v]) => [k, v.map(brief)])), beneath: beneath === null ? 'not run' : brief(beneath ?? undefined) }
}

describe('stray-error attribution (the handler scope)', () => {
  it('follows an attributed mod into its register, its handler and the timers they set', async () => {
    const r = await seen([{ name: 'user-mod', attributed: true }])
    expect(r.saw['user-mod']).toEqual(['user-mod:register', 'user-mod:prompt.submit', 'user-mod:prompt.submit'])
    expect(r.beneath).toBe('-')
  })

  it('is never entered for mods that are not attributed (built-ins): their work runs outside any scope', async () => {
    const r = await seen([{ name: 'builtin-mod', attributed: false }])
    expect(r.saw['builtin-mod']).toEqual(['-', '-', '-'])
    expect(r.beneath).toBe('-')
  })

  it('does not blame an attributed mod for a built-in handler that runs beneath its next', async () => {
    const r = await seen([{ name: 'user-mod', attributed: true }, { name: 'builtin-mod', attributed: false }])
    expect(r.saw['user-mod']).toEqual(['user-mod:register', 'user-mod:prompt.submit', 'user-mod:prompt.submit'])
    expect(r.saw['builtin-mod']).toEqual(['-', '-', '-'])
    expect(r.beneath).toBe('-')
  })
})
