import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => { dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-model-limits-'))) })
afterAll(() => rm(dir, { recursive: true, force: true }))

/** One `-p --output-format json` run on `model`: the request's max_tokens and the result's modelUsage entry. */
async function limits(model: string, env: Record<string, string> = {}) {
  const r = await runCli(['-p', 'go', '--output-format', 'json', '--model', model], { script: [{ reply: 'ok' }], cwd: dir, env: { MODLOOP_HOME: join(dir, 'home'), ...env } })
  const result = JSON.parse(r.out) as { modelUsage: Record<string, { maxOutputTokens: number }> }
  return { maxTokens: r.requests[0]!.body.max_tokens, reported: result.modelUsage[model]!.maxOutputTokens }
}

describe('max_tokens by model', () => {
  it("asks for the model's default output, which for most models is below what it can write, and modelUsage reports that default", async () => {
    expect(await limits('claude-sonnet-4-5')).toEqual({ maxTokens: 32_000, reported: 32_000 })
    expect(await limits('claude-haiku-4-5')).toEqual({ maxTokens: 32_000, reported: 32_000 })
    expect(await limits('claude-sonnet-4-6')).toEqual({ maxTokens: 32_000, reported: 32_000 })
    expect(await limits('claude-opus-4-6')).toEqual({ maxTokens: 64_000, reported: 64_000 })
    expect(await limits('claude-opus-5-5')).toEqual({ maxTokens: 128_000, reported: 128_000 })
  })

  it('takes an id it does not know for a newer model, as Claude Code does: Opus 5.5 prices, a million-token window, 32,000 asked for', async () => {
    const r = await runCli(['-p', 'go', '--output-format', 'json', '--model', 'my-custom-model'], { script: [{ reply: 'ok', usage: { input_tokens: 1000, output_tokens: 100 } }], cwd: dir, env: { MODLOOP_HOME: join(dir, 'home') } })
    expect(r.requests[0]!.body).toMatchObject({ model: 'my-custom-model', max_tokens: 32_000, thinking: { type: 'adaptive' }, output_config: { effort: 'high' } })
    const result = JSON.parse(r.out) as { total_cost_usd: number; modelUsage: Record<string, unknown> }
    expect(result.modelUsage['my-custom-model']).toMatchObject({ contextWindow: 1_000_000, maxOutputTokens: 32_000, costBasis: 'unknown' })
    expect(result.total_cost_usd).toBeCloseTo(0.006, 10)
  })

  it('CLAUDE_CODE_MAX_OUTPUT_TOKENS raises it up to what the model can write; modelUsage still reports the default', async () => {
    const env = { CLAUDE_CODE_MAX_OUTPUT_TOKENS: '200000' }
    expect(await limits('claude-sonnet-4-5', env)).toEqual({ maxTokens: 64_000, reported: 32_000 })
    expect(await limits('claude-sonnet-4-6', env)).toEqual({ maxTokens: 128_000, reported: 32_000 })
    expect(await limits('claude-opus-4-7', { CLAUDE_CODE_MAX_OUTPUT_TOKENS: '100000' })).toEqual({ maxTokens: 100_000, reported: 64_000 })
  })
})

type Usage = { input_tokens?: number; output_tokens?: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number }

/** The cost one `-p --output-format json` run on `model` reports for a reply with this usage. */
async function costOf(model: string, usage: Usage) {
  const r = await runCli(['-p', 'go', '--output-format', 'json', '--model', model], { script: [{ reply: 'ok', usage }], cwd: dir, env: { MODLOOP_HOME: join(dir, 'home') } })
  const result = JSON.parse(r.out) as { total_cost_usd: number; modelUsage: Record<string, { costUSD: number }> }
  expect(result.modelUsage[model]!.costUSD).toBeCloseTo(result.total_cost_usd, 12)
  return result.total_cost_usd
}

describe('retired model ids', () => {
  it('runs a retired Opus 4 or 4.1 id on the current Opus (or what ANTHROPIC_DEFAULT_OPUS_MODEL names), as Claude Code does', async () => {
    const run = async (model: string, env: Record<string, string> = {}) => {
      const r = await runCli(['-p', 'go', '--output-format', 'json', '--model', model], { script: [{ reply: 'ok' }], cwd: dir, env: { MODLOOP_HOME: join(dir, 'home'), ...env } })
      return { model: r.requests[0]!.body.model, maxTokens: r.requests[0]!.body.max_tokens, stderr: r.err }
    }
    expect(await run('claude-opus-4-1-20250805')).toEqual({ model: 'claude-opus-5-5', maxTokens: 128_000, stderr: '' })
    expect(await run('claude-opus-4-0', { ANTHROPIC_DEFAULT_OPUS_MODEL: 'claude-fable-5-2' })).toMatchObject({ model: 'claude-fable-5-2' })
    // A cloud id or a -latest one is not retired here.
    expect(await run('claude-opus-4-1-latest')).toMatchObject({ model: 'claude-opus-4-1-latest', maxTokens: 32_000 })
  })

  it('sends a retired Opus id as named with CLAUDE_CODE_DISABLE_LEGACY_MODEL_REMAP on, in the environment or a settings env block', async () => {
    const run = async (args: string[], env: Record<string, string> = {}) => {
      const r = await runCli(['-p', 'go', '--model', 'claude-opus-4-1', ...args], { script: [{ reply: 'ok' }], cwd: dir, env: { MODLOOP_HOME: join(dir, 'home'), HOME: dir, ...env } })
      expect(r.code).toBe(0)
      return r.requests[0]!.body.model
    }
    expect(await run([], { CLAUDE_CODE_DISABLE_LEGACY_MODEL_REMAP: '1' })).toBe('claude-opus-4-1')
    expect(await run(['--settings', JSON.stringify({ env: { CLAUDE_CODE_DISABLE_LEGACY_MODEL_REMAP: 'true' } })])).toBe('claude-opus-4-1')
    expect(await run([], { CLAUDE_CODE_DISABLE_LEGACY_MODEL_REMAP: '0' })).toBe('claude-opus-5-5')
    // A settings env block counts in what --model names, as the launch environment does.
    expect(await run(['--settings', JSON.stringify({ env: { ANTHROPIC_DEFAULT_OPUS_MODEL: 'claude-fable-5-2' } })])).toBe('claude-fable-5-2')
    expect(await run(['--model', 'opus', '--settings', JSON.stringify({ env: { ANTHROPIC_DEFAULT_OPUS_MODEL: 'claude-fable-5-2' } })])).toBe('claude-fable-5-2')
  })
})

describe('long-context pricing', () => {
  it('prices a Haiku 5.5 request whose prompt passes 100,000 tokens at five times every rate (figures Claude Code reports)', async () => {
    expect(await costOf('claude-haiku-5-5', { input_tokens: 1, cache_creation_input_tokens: 99_999, output_tokens: 0 })).toBeCloseTo(0.012499975, 12)
    expect(await costOf('claude-haiku-5-5', { input_tokens: 50_000, cache_read_input_tokens: 50_001, output_tokens: 0 })).toBeCloseTo(0.02750005, 12)
    expect(await costOf('claude-haiku-5-5', { input_tokens: 200_001, output_tokens: 1_000_000 })).toBeCloseTo(2.6000005, 12)
    // Opus 5.5 has no such rate.
    expect(await costOf('claude-opus-5-5', { input_tokens: 300_000, output_tokens: 1 })).toBeCloseTo(1.20002, 12)
  })
})
