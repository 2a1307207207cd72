import { describe, expect, it } from 'vitest'
import type { ModelSwitchInput } from '../../core/events/types.js'
import type { SDKMessage, SDKResultMessage } from '../../core/loop/messages.js'
import { channel } from '../helpers/channel.js'
import { query } from '../../entry.js'
import type { Query } from '../../runtime/query.js'
import { defineMod } from '../../core/mod/define.js'
import { costUsd } from '../../core/model/pricing.js'
import modelSwitch from '../../mods/model-switch/index.js'
import permissions from '../../mods/permissions/index.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { runScript, toolsMod } from '../loop/helpers.js'

/** Runs a streaming session: `onResult(q, n)` acts after the n-th result and returns the next prompt (or nothing to end). */
async function streaming(script: unknown, first: string, onResult: (q: Query, n: number) => Promise<string | undefined>, mods: unknown[] = [], options: { permissionMode?: 'plan' } = {}) {
  const server = await startFakeAnthropic({ script })
  const ch = channel()
  const messages: SDKMessage[] = []
  try {
    ch.send(first)
    const q = query({ prompt: ch.input, options: { bare: true, model: 'claude-sonnet-4-5', ...options, mods: [toolsMod(), modelSwitch, ...mods] as never, env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 't' } } })
    let n = 0
    for await (const m of q) {
      messages.push(m)
      if (m.type === 'result') {
        const next = await onResult(q, ++n)
        if (next === undefined) ch.close()
        else ch.send(next)
      }
    }
  } finally {
    await server.close()
  }
  return { messages, requests: server.requests, results: messages.filter((m): m is SDKResultMessage => m.type === 'result') }
}

/** Observes both sides of model.switch: the payload and the model before the switch, the answer and the model after. */
function observer(deny?: (e: ModelSwitchInput) => string | undefined) {
  const log: { before?: ModelSwitchInput & { current: string }; after?: unknown; current?: string }[] = []
  const mod = defineMod({ name: 'observer', register: (on) => on('model.switch', async ($, e, next) => {
    const entry: (typeof log)[number] = { before: { ...e, current: String($.session.model()) } }
    log.push(entry)
    const reason = deny?.(e)
    if (reason) return { deny: reason }
    const r = await next(e)
    Object.assign(entry, { after: r, current: String($.session.model()) })
    return r
  }) })
  return { log, mod }
}

describe('model switching', () => {
  it('Query.setModel switches the next request; both sides of model.switch are observed; cost and window follow', async () => {
    const { log, mod } = observer()
    const run = await streaming([{ reply: 'one', usage: { input_tokens: 1000, output_tokens: 10 } }, { reply: 'two', usage: { input_tokens: 1000, output_tokens: 10 } }], 'first', async (q, n) => {
      if (n > 1) return undefined
      await q.setModel('opus')
      return 'second'
    }, [mod])
    expect(run.requests.map((r) => r.body.model)).toEqual(['claude-sonnet-4-5', 'claude-opus-5-5'])
    expect(log).toHaveLength(1)
    expect(log[0]!.before).toMatchObject({
      from: 'claude-sonnet-4-5', to: 'claude-opus-5-5', requested: 'opus', source: 'sdk', current: 'claude-sonnet-4-5',
      promptCacheWarm: false, cacheTtl: '5m', pricing: 'catalog', contextTokens: expect.any(Number),
    })
    expect(log[0]!.after).toEqual({ model: 'claude-opus-5-5' })
    expect(log[0]!.current).toBe('claude-opus-5-5')
    const usage = run.results[1]!.modelUsage
    expect(usage['claude-opus-5-5']).toMatchObject({ contextWindow: 1_000_000, maxOutputTokens: 128_000 })
    expect(usage['claude-opus-5-5']!.costUSD).toBeCloseTo(costUsd('claude-opus-5-5', { input_tokens: 1000, output_tokens: 10 }), 10)
    expect(usage['claude-sonnet-4-5']!.costUSD).toBeCloseTo(costUsd('claude-sonnet-4-5', { input_tokens: 1000, output_tokens: 10 }), 10)
  })

  it('a denied switch keeps the model, and setModel rejects with the reason', async () => {
    const { log, mod } = observer((e) => (e.to.includes('haiku') ? 'haiku is not allowed here' : undefined))
    let refused: unknown
    const run = await streaming([{ reply: 'one' }, { reply: 'two' }], 'first', async (q, n) => {
      if (n > 1) return undefined
      await q.setModel('haiku').catch((err: unknown) => { refused = err })
      return 'second'
    }, [mod])
    expect(String(refused)).toContain('haiku is not allowed here')
    expect(log[0]!.after).toBeUndefined()
    expect(run.requests.map((r) => r.body.model)).toEqual(['claude-sonnet-4-5', 'claude-sonnet-4-5'])
  })

  it('/model switches without a model call; /model default goes back; a denial is shown', async () => {
    const { log, mod } = observer((e) => (e.to === 'claude-haiku-5-5' ? 'no haiku' : undefined))
    const prompts = ['hi', '/model haiku', '/model', '/model default', 'bye']
    const run = await streaming([{ reply: 'a' }, { reply: 'b' }], '/model claude-opus-4-6', async (_q, n) => prompts[n - 1], [mod])
    expect(run.requests.map((r) => r.body.model)).toEqual(['claude-opus-4-6', 'claude-sonnet-4-5'])
    expect(run.results.map((r) => r.result)).toEqual([
      'Model set to claude-opus-4-6', 'a', 'Model switch to haiku refused: no haiku', expect.stringContaining('Model: claude-opus-4-6'), 'Model set to claude-sonnet-4-5', 'b',
    ])
    expect(run.results[2]!.is_error).toBe(true)
    // Each turn's init shows the model as the turn starts: a /model turn's, the one before the switch.
    const inits = run.messages.flatMap((m) => (m.type === 'system' && m.subtype === 'init' ? [m.model] : []))
    expect(inits).toEqual(['claude-sonnet-4-5', 'claude-opus-4-6', 'claude-opus-4-6', 'claude-opus-4-6', 'claude-opus-4-6', 'claude-sonnet-4-5'])
    expect(log.map((l) => [l.before!.source, l.before!.requested])).toEqual([['command', 'claude-opus-4-6'], ['command', 'haiku'], ['command', null]])
  })

  it('opusplan runs on Sonnet and sends plan mode\'s requests to Opus; /model opusplan puts a session on it', async () => {
    const models = async (permissionMode: 'default' | 'plan', prompts: string[], model = 'opusplan') => {
      const run = await runScript(prompts.slice(1).map(() => ({ reply: 'ok' })).concat([{ reply: 'ok' }]), prompts[0], { model, permissionMode, mods: [toolsMod(), modelSwitch, permissions] })
      const init = run.messages.find((m) => m.type === 'system' && m.subtype === 'init') as { model?: string } | undefined
      return [init?.model, ...run.requests.map((r) => r.body.model)]
    }
    expect(await models('default', ['go'])).toEqual(['claude-sonnet-5-5', 'claude-sonnet-5-5'])
    expect(await models('plan', ['go'])).toEqual(['claude-sonnet-5-5', 'claude-opus-5-5'])
    expect(await models('plan', ['go'], 'claude-haiku-5-5')).toEqual(['claude-haiku-5-5', 'claude-haiku-5-5'])
    const prompts = ['hi', '/model sonnet', 'bye']
    const switched = await streaming([{ reply: 'a' }, { reply: 'b' }], '/model opusplan', async (_q, n) => prompts[n - 1], [permissions], { permissionMode: 'plan' })
    expect(switched.results.map((r) => r.result)).toEqual(['Model set to claude-sonnet-5-5', 'a', 'Model set to claude-sonnet-5-5', 'b'])
    // Planning on opusplan goes to Opus; a switch to another model takes the session off it.
    expect(switched.requests.map((r) => r.body.model)).toEqual(['claude-opus-5-5', 'claude-sonnet-5-5'])
  })

  it('a switch during a turn takes over from the next request', async () => {
    const switcher = defineMod({ name: 'switcher', register: (on) => on('tool.call', { tool: 'Echo' }, async ($, e, next) => {
      await $.config.set({ key: 'model', value: 'claude-haiku-5-5' })
      return next(e)
    }) })
    const run = await runScript([{ reply: [{ tool_use: { name: 'Echo', input: { text: 'x' } } }] }, { reply: 'done' }], 'go', { model: 'claude-opus-4-6', mods: [toolsMod(), switcher] })
    expect(run.requests.map((r) => r.body.model)).toEqual(['claude-opus-4-6', 'claude-haiku-5-5'])
    expect(run.result.subtype).toBe('success')
  })

  it('supportedModels lists the default and the aliases with what each accepts', async () => {
    let models: Awaited<ReturnType<Query['supportedModels']>> = []
    await streaming([{ reply: 'one' }], 'first', async (q) => {
      models = await q.supportedModels()
      return undefined
    })
    expect(models.map((m) => m.value)).toEqual(['default', 'opus', 'fable', 'sonnet', 'haiku'])
    expect(models.find((m) => m.value === 'opus')).toMatchObject({ supportsEffort: true, supportedEffortLevels: ['low', 'medium', 'high', 'xhigh', 'max'], supportsAdaptiveThinking: true })
    expect(models.find((m) => m.value === 'haiku')).toMatchObject({ supportsEffort: true, supportedEffortLevels: ['low', 'medium', 'high', 'xhigh', 'max'], supportsAdaptiveThinking: true })
    // Each row names the id it stands for, as Claude Code's do.
    expect(models.find((m) => m.value === 'haiku')).toMatchObject({ resolvedModel: 'claude-haiku-5-5' })
    expect(models.find((m) => m.value === 'default')).toMatchObject({ resolvedModel: 'claude-sonnet-4-5' })
  })
})
