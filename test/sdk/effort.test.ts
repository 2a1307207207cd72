import { describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import { clampEffort, clampThinking } from '../../core/model/capabilities.js'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../helpers/cli.js'
import { runScript } from '../loop/helpers.js'

const body = (run: { requests: { body: any }[] }, i = 0) => run.requests[i]!.body

describe('effort and thinking', () => {
  it('sends effort as output_config.effort and adaptive thinking on a model that has both', async () => {
    const run = await runScript([{ reply: 'ok' }], 'go', { model: 'claude-opus-4-7', effort: 'xhigh', thinking: { type: 'adaptive' } })
    expect(body(run).output_config).toEqual({ effort: 'xhigh' })
    expect(body(run).thinking).toEqual({ type: 'adaptive' })
  })

  it('clamps effort to the highest level the model accepts at or below the one asked for', async () => {
    const run = await runScript([{ reply: 'ok' }], 'go', { model: 'claude-opus-4-6', effort: 'xhigh' })
    expect(body(run).output_config).toEqual({ effort: 'high' })
    const none = await runScript([{ reply: 'ok' }], 'go', { model: 'claude-haiku-4-5', effort: 'max' })
    expect(body(none).output_config).toBeUndefined()
  })

  it('sends a fixed thinking budget below max_tokens, and adaptive where only adaptive exists', async () => {
    const run = await runScript([{ reply: 'ok' }], 'go', { model: 'claude-sonnet-4-5', maxTokens: 4000, thinking: { type: 'enabled', budgetTokens: 10_000 } })
    expect(body(run).thinking).toEqual({ type: 'enabled', budget_tokens: 3999 })
    const adaptiveOnly = await runScript([{ reply: 'ok' }], 'go', { model: 'claude-opus-4-7', maxThinkingTokens: 2048 })
    expect(body(adaptiveOnly).thinking).toEqual({ type: 'adaptive' })
    const off = await runScript([{ reply: 'ok' }], 'go', { model: 'claude-opus-4-6', maxThinkingTokens: 0, effort: 'max' })
    expect(body(off).thinking).toEqual({ type: 'disabled' })
    // Without thinking the API takes effort up to high only.
    expect(body(off).output_config).toEqual({ effort: 'high' })
  })

  it('MAX_THINKING_TOKENS in the environment asks for a budget (0: off) when the query names none; a bad value is ignored', async () => {
    const thinking = async (value: string, options = {}) =>
      body(await runScript([{ reply: 'ok' }], 'go', { model: 'claude-sonnet-4-5', env: { MAX_THINKING_TOKENS: value }, ...options })).thinking
    expect(await thinking('5000')).toEqual({ type: 'enabled', budget_tokens: 5000 })
    expect(await thinking('0')).toEqual({ type: 'disabled' })
    // Ignored, it leaves the default: a budget up to max_tokens.
    expect(await thinking('lots')).toEqual({ type: 'enabled', budget_tokens: 31_999 })
    expect(await thinking('5000', { maxThinkingTokens: 2048 })).toEqual({ type: 'enabled', budget_tokens: 2048 })
  })

  it('thinks by default, as Claude Code has every model that can: adaptively where the model has it, else with a budget below max_tokens; unasked, the effort is the model default, as Claude Code sends it', async () => {
    const sent = async (model: string, options = {}) => body(await runScript([{ reply: 'ok' }], 'go', { model, ...options }))
    const opus = await sent('claude-opus-5-5')
    expect(opus.thinking).toEqual({ type: 'adaptive' })
    expect(opus.max_tokens).toBe(128_000)
    expect(opus.output_config).toEqual({ effort: 'medium' })
    expect((await sent('claude-opus-4-7')).output_config).toEqual({ effort: 'xhigh' })
    expect((await sent('claude-sonnet-4-6')).output_config).toEqual({ effort: 'high' })
    expect((await sent('claude-haiku-4-5')).output_config).toBeUndefined()
    expect((await sent('claude-sonnet-4-6')).thinking).toEqual({ type: 'adaptive' })
    expect((await sent('claude-sonnet-4-5', { maxTokens: 32_000 })).thinking).toEqual({ type: 'enabled', budget_tokens: 31_999 })
    expect((await sent('claude-3-5-haiku-20241022')).thinking).toBeUndefined()
    expect((await sent('claude-3-7-sonnet-20250219', { env: { MAX_THINKING_TOKENS: '4000' } })).thinking).toBeUndefined()
    // Off is a 400 on a model that thinks only adaptively: there it stays adaptive; elsewhere off is sent.
    expect((await sent('claude-opus-5-5', { thinking: { type: 'disabled' } })).thinking).toEqual({ type: 'adaptive' })
    expect((await sent('claude-haiku-5-5', { env: { MAX_THINKING_TOKENS: '0' } })).thinking).toEqual({ type: 'adaptive' })
    expect((await sent('claude-sonnet-4-6', { env: { MAX_THINKING_TOKENS: '0' } })).thinking).toEqual({ type: 'disabled' })
  })

  it('CLAUDE_CODE_EFFORT_LEVEL wins over the effort option, in any case; auto is the model default; another value is ignored', async () => {
    const effort = async (value: string, options = {}) =>
      body(await runScript([{ reply: 'ok' }], 'go', { model: 'claude-opus-5-5', env: { CLAUDE_CODE_EFFORT_LEVEL: value }, ...options })).output_config
    expect(await effort('low', { effort: 'high' })).toEqual({ effort: 'low' })
    expect(await effort('HIGH')).toEqual({ effort: 'high' })
    expect(await effort('auto', { effort: 'high' })).toEqual({ effort: 'medium' })
    expect(await effort('lots', { effort: 'high' })).toEqual({ effort: 'high' })
    // Clamped to the model like any other.
    expect(await effort('xhigh', { model: 'claude-opus-4-6' })).toEqual({ effort: 'high' })
  })

  it('CLAUDE_CODE_DISABLE_THINKING sends no thinking parameter, whatever the query or MAX_THINKING_TOKENS ask, and keeps the effort', async () => {
    const sent = async (value: string, options = {}) =>
      body(await runScript([{ reply: 'ok' }], 'go', { model: 'claude-opus-4-6', effort: 'max', env: { CLAUDE_CODE_DISABLE_THINKING: value, MAX_THINKING_TOKENS: '5000' }, ...options }))
    const off = await sent('1', { thinking: { type: 'enabled' } })
    expect(off.thinking).toBeUndefined()
    expect(off.output_config).toEqual({ effort: 'max' })
    expect((await sent('true', { model: 'claude-sonnet-4-5' })).thinking).toBeUndefined()
    expect((await sent('0')).thinking).toEqual({ type: 'adaptive' })
  })

  it('puts the effective effort on turn.step, where a handler may rewrite it', async () => {
    const seen: unknown[] = []
    const lower = defineMod({ name: 'lower', register: (on) => on('turn.step', async function* (_$, e, next) {
      seen.push(e.effort)
      return yield* next({ ...e, effort: 'low' })
    }) })
    const run = await runScript([{ reply: 'ok' }], 'go', { model: 'claude-opus-4-6', effort: 'max', mods: [lower] })
    expect(seen).toEqual(['max'])
    expect(body(run).output_config).toEqual({ effort: 'low' })
  })

  it('the capability table', () => {
    expect(clampEffort('claude-opus-4-5-20251101', 'max')).toBe('high')
    expect(clampEffort('claude-3-5-haiku', 'low')).toBeUndefined()
    expect(clampEffort('some-future-model', 'xhigh')).toBe('xhigh')
    expect(clampThinking('claude-3-5-sonnet', { type: 'adaptive' }, 8000)).toBeUndefined()
    expect(clampThinking('claude-opus-4-5', { type: 'adaptive' }, 8000)).toBeUndefined()
    expect(clampThinking('claude-opus-4-5', { type: 'enabled', budgetTokens: 100 }, 8000)).toEqual({ type: 'enabled', budget_tokens: 1024 })
    expect(clampThinking('claude-opus-4-5', { type: 'enabled' }, 1000)).toBeUndefined()
    // A fixed budget is deprecated where adaptive thinking exists.
    expect(clampThinking('claude-sonnet-4-6', { type: 'enabled', budgetTokens: 5000 }, 8000)).toEqual({ type: 'adaptive' })
  })

  it('mods read the effective effort with $.config.list, and system/init carries it', async () => {
    let rows: unknown
    const reader = defineMod({ name: 'reader', register: (on) => on('turn.start', async ($, e, next) => {
      rows = await $.config.list()
      return next(e)
    }) })
    const run = await runScript([{ reply: 'ok' }], 'go', { model: 'claude-opus-4-6', effort: 'xhigh', mods: [reader] })
    expect(rows).toEqual([{ key: 'model', value: 'claude-opus-4-6' }, { key: 'effort', value: 'high' }])
    expect(run.messages.find((m) => m.type === 'system' && m.subtype === 'init')).toMatchObject({ effort: 'high' })
  })

  it('-p takes --effort, --thinking and --max-thinking-tokens', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'modloop-effort-'))
    const env = { MODLOOP_HOME: join(cwd, '.home') }
    const run = await runCli(['-p', 'go', '--model', 'claude-opus-4-5', '--effort', 'medium', '--thinking', 'enabled', '--max-thinking-tokens', '2000'], { script: [{ reply: 'ok' }], cwd, env })
    expect(run.code).toBe(0)
    expect(run.requests[0]!.body).toMatchObject({ output_config: { effort: 'medium' }, thinking: { type: 'enabled', budget_tokens: 2000 } })
    // As Claude Code: a level in any case; an unknown one is warned about and the run goes on with the default.
    const upper = await runCli(['-p', 'go', '--model', 'claude-opus-4-5', '--effort', 'HIGH'], { script: [{ reply: 'ok' }], cwd, env })
    expect(upper.requests[0]!.body).toMatchObject({ output_config: { effort: 'high' } })
    const bad = await runCli(['-p', 'go', '--model', 'claude-opus-4-5', '--effort', 'extreme'], { script: [{ reply: 'ok' }], cwd, env })
    expect(bad.code).toBe(0)
    expect(bad.out).toBe('ok\n')
    expect(bad.err).toContain('unknown --effort value "extreme": it is ignored and the default effort used; the levels are low, medium, high, xhigh, max')
    expect((bad.requests[0]!.body as { output_config?: { effort?: string } }).output_config?.effort).not.toBe('extreme')
    const badThinking = await runCli(['-p', 'go', '--thinking', 'sometimes'], { script: [], cwd, env })
    expect(badThinking.err).toContain('--thinking must be one of adaptive, enabled, disabled')
  })
})

describe('interleaved thinking', () => {
  it('a fixed thinking budget goes with the interleaved-thinking beta, kept once beside the query\'s own betas', async () => {
    const beta = (run: { requests: unknown[] }) => (run.requests[0] as { headers: Record<string, unknown> }).headers['anthropic-beta']
    expect(beta(await runScript([{ reply: 'ok' }], 'go', { model: 'claude-sonnet-4-5' }))).toBe('interleaved-thinking-2025-05-14')
    expect(beta(await runScript([{ reply: 'ok' }], 'go', { model: 'claude-sonnet-4-5', betas: ['context-1m-2025-08-07', 'interleaved-thinking-2025-05-14'] })))
      .toBe('context-1m-2025-08-07,interleaved-thinking-2025-05-14')
    expect(beta(await runScript([{ reply: 'ok' }], 'go', { model: 'claude-sonnet-4-5', maxThinkingTokens: 0 }))).toBeUndefined()
    expect(beta(await runScript([{ reply: 'ok' }], 'go', { model: 'claude-opus-4-7' }))).toBeUndefined()
  })

  it('DISABLE_INTERLEAVED_THINKING leaves the beta off while the budget is still sent', async () => {
    const run = await runScript([{ reply: 'ok' }], 'go', { model: 'claude-sonnet-4-5', env: { DISABLE_INTERLEAVED_THINKING: '1' } })
    const sent = run.requests[0] as { headers: Record<string, unknown>; body: { thinking?: unknown } }
    expect(sent.headers['anthropic-beta']).toBeUndefined()
    expect(sent.body.thinking).toMatchObject({ type: 'enabled' })
  })
})

describe('thinking display', () => {
  it('thinking.display and --thinking-display reach the API, the option\'s own first; never with thinking off', async () => {
    const sent = async (options: object) => body(await runScript([{ reply: 'ok' }], 'go', { model: 'claude-opus-4-7', ...options })).thinking
    expect(await sent({ thinking: { type: 'adaptive', display: 'summarized' } })).toEqual({ type: 'adaptive', display: 'summarized' })
    expect(await sent({ thinkingDisplay: 'omitted', thinking: { type: 'adaptive', display: 'summarized' } })).toEqual({ type: 'adaptive', display: 'summarized' })
    expect(await sent({ model: 'claude-sonnet-4-5', maxTokens: 4000, thinkingDisplay: 'summarized' })).toEqual({ type: 'enabled', budget_tokens: 3999, display: 'summarized' })
    expect(await sent({ model: 'claude-sonnet-4-5', maxThinkingTokens: 0, thinkingDisplay: 'summarized' })).toEqual({ type: 'disabled' })
    const cwd = mkdtempSync(join(tmpdir(), 'modloop-display-'))
    const env = { MODLOOP_HOME: join(cwd, '.home') }
    const run = await runCli(['-p', 'go', '--model', 'claude-opus-4-7', '--thinking-display', 'summarized'], { script: [{ reply: 'ok' }], cwd, env })
    expect(run.code).toBe(0)
    expect(run.err).not.toContain('thinking-display')
    expect(run.requests[0]!.body).toMatchObject({ thinking: { type: 'adaptive', display: 'summarized' } })
    const bad = await runCli(['-p', 'go', '--thinking-display', 'full'], { script: [], cwd, env })
    expect(bad.code).toBe(1)
    expect(bad.err).toContain('--thinking-display takes summarized or omitted')
  })
})
