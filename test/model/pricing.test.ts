import { describe, expect, it } from 'vitest'
import { contextWindow, costUsd, maxOutputTokens, modelInfo } from '../../core/model/pricing.js'

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

  it('matches cloud-prefixed ids and falls back to a documented default', () => {
    expect(modelInfo('anthropic.claude-opus-4-20250514-v1:0').family).toBe('claude-opus-4')
    expect(modelInfo('some-other-model')).toMatchObject({ family: 'default', contextWindow: 200_000, maxOutputTokens: 32_000 })
    expect(costUsd('some-other-model', usage)).toBeCloseTo(5.85, 10)
  })

  it('knows windows and output caps', () => {
    expect(contextWindow('claude-sonnet-4-5')).toBe(200_000)
    expect(maxOutputTokens('claude-sonnet-4-5')).toBe(64_000)
    expect(maxOutputTokens('claude-haiku-4-5')).toBe(64_000)
    expect(maxOutputTokens('claude-opus-4-1')).toBe(32_000)
    expect(maxOutputTokens('unknown')).toBe(32_000)
  })
})
