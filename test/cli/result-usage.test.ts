import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => { dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-result-usage-'))) })
afterAll(() => rm(dir, { recursive: true, force: true }))

const json = async (args: string[], script: unknown) => {
  const r = await runCli(['-p', 'go', '--output-format', 'json', ...args], { script, cwd: dir, env: { MODLOOP_HOME: join(dir, 'home') } })
  return JSON.parse(r.out) as Record<string, any>
}

describe('the result usage', () => {
  it('counts the searches the API ran within a main-loop response, in usage, modelUsage and the cost', async () => {
    const result = await json(['--model', 'claude-sonnet-4-5'], [{
      reply: [
        { server_tool_use: { input: { query: 'cat facts' } } },
        { web_search_tool_result: { content: [{ title: 'Cat facts', url: 'https://cats.example/facts' }] } },
        { text: 'Cats sleep a lot.' },
      ],
      usage: { input_tokens: 1000, output_tokens: 50 },
    }])
    expect(result.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 0 })
    expect(result.modelUsage['claude-sonnet-4-5'].webSearchRequests).toBe(1)
    // $3 and $15 a million tokens, and $0.01 the search.
    expect(result.total_cost_usd).toBeCloseTo(0.003 + 0.00075 + 0.01, 10)
  })

  it('has every field of the API usage, the counts summed, the rest as the last response said (Claude Code\'s defaults where it did not)', async () => {
    const plain = await json([], [{ reply: 'hi', usage: { input_tokens: 10, output_tokens: 2 } }])
    expect(plain.usage).toEqual({
      input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 2,
      output_tokens_details: { thinking_tokens: 0 }, server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
      service_tier: 'standard', cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
      inference_geo: '', iterations: [], speed: 'standard', fallback_credit: null,
    })
    const told = await json(['--dangerously-skip-permissions'], [
      { reply: [{ thinking: 'hmm' }, { tool_use: { name: 'Bash', input: { command: 'true' } } }], usage: { input_tokens: 10, output_tokens: 20, thinking_tokens: 15, service_tier: 'priority' } },
      { reply: 'done', usage: { input_tokens: 30, output_tokens: 5, thinking_tokens: 3, inference_geo: 'us', speed: 'fast' } },
    ])
    expect(told.usage).toMatchObject({ input_tokens: 40, output_tokens: 25, output_tokens_details: { thinking_tokens: 18 }, service_tier: 'standard', inference_geo: 'us', speed: 'fast' })
  })

  it('keeps how the last answered request was served when a later request fails without a usage of its own', async () => {
    const failed = await json(['--dangerously-skip-permissions'], [
      { reply: [{ tool_use: { name: 'Bash', input: { command: 'true' } } }], usage: { input_tokens: 10, output_tokens: 20, service_tier: 'priority', inference_geo: 'us', speed: 'fast' } },
      { error: { status: 400, type: 'invalid_request_error', message: 'bad request' } },
    ])
    expect(failed.is_error).toBe(true)
    expect(failed.usage).toMatchObject({ input_tokens: 10, output_tokens: 20, service_tier: 'priority', inference_geo: 'us', speed: 'fast' })
  })

  it('modelUsage names each model canonically, with its thinking tokens, cache write split, provider and cost basis', async () => {
    const result = await json(['--model', 'claude-sonnet-4-5-20250929', '--dangerously-skip-permissions'], [
      { reply: [{ tool_use: { name: 'Bash', input: { command: 'true' } } }], model: 'my-custom-model', usage: { input_tokens: 10, output_tokens: 20, thinking_tokens: 15 } },
      { reply: 'done', usage: { input_tokens: 30, output_tokens: 5 } },
    ])
    expect(result.modelUsage['claude-sonnet-4-5-20250929']).toMatchObject({
      thinkingTokens: 0, cacheCreationEphemeral5mInputTokens: 0, cacheCreationEphemeral1hInputTokens: 0,
      canonicalModel: 'claude-sonnet-4-5', provider: 'firstParty', costBasis: 'list',
    })
    expect(result.modelUsage['my-custom-model']).toMatchObject({ thinkingTokens: 15, canonicalModel: 'my-custom-model', provider: 'firstParty', costBasis: 'unknown' })
  })

  it('prices a request served in the US only at 1.1 times, and a fast one at the model\'s fast rate (none where it has no fast mode)', async () => {
    const step = (model: string, usage: Record<string, unknown>, last = false) => ({
      reply: last ? 'done' : [{ tool_use: { name: 'Bash', input: { command: 'true' } } }], model, usage: { input_tokens: 1000, output_tokens: 100, ...usage },
    })
    const result = await json(['--dangerously-skip-permissions'], [
      step('claude-opus-5-5', { inference_geo: 'us' }),
      step('claude-opus-4-6', { speed: 'fast' }),
      step('claude-sonnet-5-5', { speed: 'fast', inference_geo: 'eu' }),
      step('claude-fable-5-2', { speed: 'fast', inference_geo: 'us' }, true),
    ])
    const cost = (model: string) => result.modelUsage[model].costUSD as number
    expect(cost('claude-opus-5-5')).toBeCloseTo(0.006 * 1.1, 10)
    expect(cost('claude-opus-4-6')).toBeCloseTo(0.0075 * 6, 10)
    expect(cost('claude-sonnet-5-5')).toBeCloseTo(0.003, 10)
    expect(cost('claude-fable-5-2')).toBeCloseTo(0.012 * 2 * 1.1, 10)
  })

  it('says no API failure ended a success, that fast mode is off, and which result of the query each is', async () => {
    const prompt = (text: string) => JSON.stringify({ type: 'user', message: { role: 'user', content: text } }) + '\n'
    const r = await runCli(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'], {
      script: [{ reply: 'a' }, { reply: 'b' }], cwd: dir, env: { MODLOOP_HOME: join(dir, 'home') }, stdin: prompt('one') + prompt('two'),
    })
    const results = r.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).filter((m) => m.type === 'result')
    expect(results.map((m) => [m.result, m.api_error_status, m.fast_mode_state, m.result_index])).toEqual([['a', null, 'off', 0], ['b', null, 'off', 1]])
  })
})
