import { describe, expect, it } from 'vitest'
import { contextWindow, costUsd, maxOutputTokens, modelInfo, outputTokenCap } from '../../core/model/pricing.js'

describe('pricing', () => {
  const usage = { input_tokens: 1_000_000, output_tokens: 100_000, cache_creation_input_tokens: 200_000, cache_read_input_tokens: 2_000_000 }

  it('prices a usage by model family', () => {
    // 3 + 1.5 + 0.75 + 0.6
    expect(costUsd('claude-sonnet-4-5-20250929', usage)).toBeCloseTo(5.85, 10)
    // 15 + 7.5 + 3.75 + 3
    expect(costUsd('claude-opus-4-1-20250805', usage)).toBeCloseTo(29.25, 10)
    // 5 + 2.5 + 1.25 + 1
    expect(costUsd('claude-opus-4-5', usage)).toBeCloseTo(9.75, 10)
    // 1 + 0.5 + 0.25 + 0.2
    expect(costUsd('claude-haiku-4-5-20251001', usage)).toBeCloseTo(1.95, 10)
    // 0.8 + 0.4 + 0.2 + 0.16
    expect(costUsd('claude-3-5-haiku-latest', usage)).toBeCloseTo(1.56, 10)
    expect(costUsd('claude-sonnet-4-5', { output_tokens: 1000 })).toBeCloseTo(0.015, 10)
  })

  it('prices the Claude 5 models at their own rates, cache reads included (figures Claude Code reports for the same usage)', () => {
    const u = (input: number, output: number, read: number, write: number) => ({ input_tokens: input, output_tokens: output, cache_read_input_tokens: read, cache_creation_input_tokens: write })
    expect(costUsd('claude-opus-5-5', u(10, 22, 24676, 12468))).toBeCloseTo(0.0677552, 10)
    expect(costUsd('claude-opus-5', u(5, 22, 26145, 13234))).toBeCloseTo(0.09636, 10)
    expect(costUsd('claude-sonnet-5-5', u(12, 22, 24450, 12355))).toBeCloseTo(0.0335765, 10)
    expect(costUsd('claude-sonnet-5', u(8, 22, 43550, 21950))).toBeCloseTo(0.063821, 10)
    expect(costUsd('claude-haiku-5-5', u(21, 22, 25925, 13124))).toBeCloseTo(0.00191285, 10)
    expect(costUsd('claude-fable-5', u(4, 22, 26685, 13504))).toBeCloseTo(0.196625, 10)
    expect(costUsd('claude-mythos-5', u(5, 22, 26395, 13359))).toBeCloseTo(0.1945325, 10)
    expect(costUsd('claude-fable-5-1', u(97, 22, 27591, 13957))).toBeCloseTo(0.18343025, 10)
    expect(costUsd('claude-mythos-5-1', u(83, 22, 27313, 13818))).toBeCloseTo(0.18148325, 10)
    expect(costUsd('claude-fable-5-2', u(10, 22, 26858, 13559))).toBeCloseTo(0.1419216, 10)
    // An hour's write is twice the input price here too: Opus 5.5 at 8 dollars a million.
    expect(costUsd('claude-opus-5-5', { cache_creation_input_tokens: 1_000_000, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 1_000_000 } })).toBe(8)
    // A dated Fable 5 id is not Fable 5.2.
    expect(modelInfo('claude-fable-5-20260609').family).toBe('claude-fable-5')
  })

  it('matches cloud-prefixed ids and falls back to a documented default', () => {
    expect(modelInfo('anthropic.claude-opus-4-20250514-v1:0').family).toBe('claude-opus-4')
    expect(modelInfo('some-other-model')).toMatchObject({ family: 'default', contextWindow: 1_000_000, maxOutputTokens: 32_000 })
    expect(costUsd('some-other-model', usage)).toBeCloseTo(7.4, 10)
  })

  it('knows windows and output caps', () => {
    expect(contextWindow('claude-sonnet-4-5')).toBe(200_000)
    expect(contextWindow('claude-opus-4-6')).toBe(200_000)
    for (const id of ['claude-opus-4-7', 'claude-opus-4-8', 'claude-opus-5', 'claude-opus-5-5', 'claude-sonnet-5', 'claude-sonnet-5-5', 'claude-haiku-5-5', 'claude-fable-5-2', 'claude-mythos-5']) {
      expect(contextWindow(id), id).toBe(1_000_000)
    }
    expect(maxOutputTokens('claude-sonnet-4-5')).toBe(32_000)
    expect(outputTokenCap('claude-sonnet-4-5')).toBe(64_000)
    expect(maxOutputTokens('claude-haiku-4-5')).toBe(32_000)
    expect(maxOutputTokens('claude-opus-4-1')).toBe(32_000)
    expect(outputTokenCap('claude-opus-4-1')).toBe(32_000)
    expect(maxOutputTokens('claude-haiku-5-5')).toBe(128_000)
    expect(maxOutputTokens('claude-fable-5-1')).toBe(64_000)
    expect(outputTokenCap('claude-fable-5-1')).toBe(128_000)
    expect(maxOutputTokens('unknown')).toBe(32_000)
    expect(outputTokenCap('unknown')).toBe(128_000)
  })
})
