import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => { dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-budget-fallback-'))) })
afterAll(() => rm(dir, { recursive: true, force: true }))

const cli = (args: string[], script: unknown, env: Record<string, string> = {}) =>
  runCli(['-p', 'go', '--output-format', 'stream-json', '--verbose', ...args], { script, cwd: dir, env: { MODLOOP_HOME: join(dir, 'home'), ...env } })
const linesOf = (out: string) => out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>)
const modelsAsked = (requests: { body: Record<string, unknown> }[]) => requests.map((r) => r.body.model)

describe('modloop -p --max-budget-usd', () => {
  it('ends with error_max_budget_usd once the spend reaches it, exit 1', async () => {
    // A million input tokens of Sonnet cost $3.
    const r = await cli(['--max-budget-usd', '0.5', '--model', 'claude-sonnet-4-5'], [{ reply: 'expensive', usage: { input_tokens: 1_000_000 } }, { reply: 'never' }])
    expect(r.code).toBe(1)
    const result = linesOf(r.out).at(-1)!
    expect(result).toMatchObject({ type: 'result', subtype: 'error_max_budget_usd', is_error: true, terminal_reason: 'budget_exhausted', errors: ['Reached the maximum budget ($0.5)'] })
    expect(result.total_cost_usd).toBeGreaterThanOrEqual(0.5)
    expect(r.requests).toHaveLength(1)
  })

  it('a run under the budget succeeds', async () => {
    const r = await cli(['--max-budget-usd', '5'], [{ reply: 'cheap', usage: { input_tokens: 1_000 } }])
    expect(r.code).toBe(0)
    expect(linesOf(r.out).at(-1)).toMatchObject({ subtype: 'success', result: 'cheap' })
  })
})

describe('modloop -p --fallback-model', () => {
  it('takes over for the turn when the model stays overloaded past its retries', async () => {
    const r = await cli(['--model', 'claude-opus-4-5', '--fallback-model', 'claude-haiku-4-5'], [
      { error: { status: 529 }, times: 2 },
      { reply: 'from the fallback', expect: { model: 'claude-haiku-4-5' } },
    ], { MODLOOP_MAX_RETRIES: '1' })
    expect(r.code).toBe(0)
    const lines = linesOf(r.out)
    expect(lines.at(-1)).toMatchObject({ subtype: 'success', result: 'from the fallback' })
    expect(lines.at(-1)!.modelUsage['claude-haiku-4-5'].outputTokens).toBeGreaterThan(0)
    expect(modelsAsked(r.requests)).toEqual(['claude-opus-4-5', 'claude-opus-4-5', 'claude-haiku-4-5'])
    expect(lines.some((l) => l.subtype === 'informational' && /falling back to claude-haiku-4-5/.test(l.content))).toBe(true)
  })

  it('takes over after three overloads in a row, however many retries are left', async () => {
    const r = await cli(['--model', 'claude-opus-4-5', '--fallback-model', 'claude-haiku-4-5'], [
      { error: { status: 529 }, times: 3 },
      { reply: 'from the fallback', expect: { model: 'claude-haiku-4-5' } },
    ])
    expect(linesOf(r.out).at(-1)).toMatchObject({ subtype: 'success', result: 'from the fallback' })
    expect(modelsAsked(r.requests)).toEqual(['claude-opus-4-5', 'claude-opus-4-5', 'claude-opus-4-5', 'claude-haiku-4-5'])
    expect(Object.keys(linesOf(r.out).at(-1)!.modelUsage)).toEqual(['claude-haiku-4-5'])
  })

  it('takes over at once on a server error', async () => {
    const r = await cli(['--model', 'claude-opus-4-5', '--fallback-model', 'claude-haiku-4-5'], [
      { error: { status: 500 } },
      { reply: 'from the fallback', expect: { model: 'claude-haiku-4-5' } },
    ])
    expect(linesOf(r.out).at(-1)).toMatchObject({ subtype: 'success', result: 'from the fallback' })
    expect(modelsAsked(r.requests)).toEqual(['claude-opus-4-5', 'claude-haiku-4-5'])
  })

  it('retries a refusal on the fallback model, the refused reply superseded', async () => {
    const r = await cli(['--model', 'claude-opus-4-5', '--fallback-model', 'claude-haiku-4-5'], [
      { reply: 'I will not', stop_reason: 'refusal' },
      { reply: 'Here it is', expect: { model: 'claude-haiku-4-5' } },
    ])
    expect(r.code).toBe(0)
    const lines = linesOf(r.out)
    expect(lines.at(-1)).toMatchObject({ subtype: 'success', result: 'Here it is' })
    expect(modelsAsked(r.requests)).toEqual(['claude-opus-4-5', 'claude-haiku-4-5'])
    const [refused, answer] = lines.filter((l) => l.type === 'assistant')
    expect(answer!.supersedes).toEqual([refused!.uuid])
  })

  it('without it an overload ends the turn as api_error', async () => {
    const r = await cli(['--model', 'claude-opus-4-5'], [{ error: { status: 529 }, times: 2 }, { reply: 'unused' }], { MODLOOP_MAX_RETRIES: '1' })
    expect(r.code).toBe(1)
    expect(linesOf(r.out).at(-1)).toMatchObject({ subtype: 'success', is_error: true, terminal_reason: 'api_error' })
    // The model answered nothing, so modelUsage does not list it.
    expect(linesOf(r.out).at(-1)!.modelUsage).toEqual({})
  })
})
