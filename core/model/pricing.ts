import type { Usage } from '../events/types.js'
import { envTrue } from '../env.js'

/** US dollars per million tokens. `cacheWrite` is the 5-minute cache write rate. */
export interface ModelPricing {
  input: number
  output: number
  cacheWrite: number
  cacheRead: number
  /** A request whose prompt (input, cache reads and writes) passes `above` tokens pays every rate `factor` times. */
  longContext?: { above: number; factor: number }
}

export interface ModelInfo {
  /** The table row that matched, or 'default'. */
  family: string
  pricing: ModelPricing
  /** How many times the rates a fast-mode request pays (1 where the model has no fast mode). */
  fastFactor: number
  contextWindow: number
  /** The `max_tokens` a request carries unless told otherwise (what `modelUsage` reports). */
  maxOutputTokens: number
  /** The most CLAUDE_CODE_MAX_OUTPUT_TOKENS can raise it to. */
  outputTokenCap: number
}

const OPUS_LEGACY: ModelPricing = { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 }
const OPUS: ModelPricing = { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 }
const SONNET: ModelPricing = { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }
const HAIKU_4: ModelPricing = { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 }
const HAIKU_3_5: ModelPricing = { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 }
const HAIKU_3: ModelPricing = { input: 0.25, output: 1.25, cacheWrite: 0.3, cacheRead: 0.03 }
// The Claude 5 generation. Several read the cache for less than the usual tenth of the input price.
const OPUS_5_5: ModelPricing = { input: 4, output: 20, cacheWrite: 5, cacheRead: 0.2 }
const SONNET_5_5: ModelPricing = { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.1 }
const SONNET_5: ModelPricing = { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 }
const HAIKU_5_5: ModelPricing = { input: 0.1, output: 0.5, cacheWrite: 0.125, cacheRead: 0.01, longContext: { above: 100_000, factor: 5 } }
const FABLE_5_2: ModelPricing = { input: 8, output: 40, cacheWrite: 10, cacheRead: 0.2 }
const FABLE_5_1: ModelPricing = { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 0.25 }
const FABLE_5: ModelPricing = { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 1 }

const WINDOW = 200_000
/** Opus 4.7 and later, and every Claude 5 model, read a million tokens. */
const WINDOW_1M = 1_000_000

/**
 * Known families, most specific first: a model id matches the first row one of whose strings
 * it contains, so dated ids, aliases and cloud-prefixed ids (`anthropic.claude-…`) all resolve.
 * Opus 4 and 4.1 kept the old Opus price; later Opus models are cheaper. `maxOutputTokens` is
 * what a request asks for by default, `cap` (when higher) what CLAUDE_CODE_MAX_OUTPUT_TOKENS may
 * raise it to: Claude Code asks most models for less than they can write. `fast` is how many times
 * the rates a request served at fast speed (`usage.speed: 'fast'`) pays; a model without it has no
 * fast mode, so such a request pays the usual rates.
 */
const TABLE: { family: string; match: (string | RegExp)[]; pricing: ModelPricing; maxOutputTokens: number; cap?: number; window?: number; fast?: number }[] = [
  { family: 'claude-opus-5-5', match: ['opus-5-5'], pricing: OPUS_5_5, maxOutputTokens: 128_000, window: WINDOW_1M, fast: 2 },
  { family: 'claude-opus-4-7', match: ['opus-4-7'], pricing: OPUS, maxOutputTokens: 64_000, cap: 128_000, window: WINDOW_1M, fast: 6 },
  { family: 'claude-opus-5', match: ['opus-5', 'opus-4-8'], pricing: OPUS, maxOutputTokens: 64_000, cap: 128_000, window: WINDOW_1M, fast: 2 },
  { family: 'claude-opus-4-1', match: ['claude-opus-4-1'], pricing: OPUS_LEGACY, maxOutputTokens: 32_000 },
  { family: 'claude-opus-4', match: ['claude-opus-4-0', 'claude-opus-4-2025'], pricing: OPUS_LEGACY, maxOutputTokens: 32_000 },
  { family: 'claude-3-opus', match: ['claude-3-opus'], pricing: OPUS_LEGACY, maxOutputTokens: 4_096 },
  { family: 'claude-opus-4-5', match: ['opus-4-5'], pricing: OPUS, maxOutputTokens: 32_000, cap: 64_000 },
  { family: 'claude-opus-4-6', match: ['opus-4-6'], pricing: OPUS, maxOutputTokens: 64_000, cap: 128_000, fast: 6 },
  { family: 'claude-opus', match: ['claude-opus', 'opus'], pricing: OPUS, maxOutputTokens: 64_000, cap: 128_000 },
  { family: 'claude-sonnet-5-5', match: ['sonnet-5-5'], pricing: SONNET_5_5, maxOutputTokens: 128_000, window: WINDOW_1M },
  { family: 'claude-sonnet-5', match: ['sonnet-5'], pricing: SONNET_5, maxOutputTokens: 64_000, cap: 128_000, window: WINDOW_1M },
  { family: 'claude-3-5-sonnet', match: ['claude-3-5-sonnet'], pricing: SONNET, maxOutputTokens: 8_192 },
  { family: 'claude-3-7-sonnet', match: ['claude-3-7-sonnet'], pricing: SONNET, maxOutputTokens: 32_000, cap: 64_000 },
  { family: 'claude-sonnet-4-6', match: ['sonnet-4-6'], pricing: SONNET, maxOutputTokens: 32_000, cap: 128_000 },
  { family: 'claude-sonnet', match: ['claude-sonnet', 'sonnet'], pricing: SONNET, maxOutputTokens: 32_000, cap: 64_000 },
  { family: 'claude-haiku-5-5', match: ['haiku-5-5'], pricing: HAIKU_5_5, maxOutputTokens: 128_000, window: WINDOW_1M },
  { family: 'claude-haiku-5', match: ['haiku-5'], pricing: HAIKU_5_5, maxOutputTokens: 32_000, cap: 128_000, window: WINDOW_1M },
  { family: 'claude-3-5-haiku', match: ['claude-3-5-haiku'], pricing: HAIKU_3_5, maxOutputTokens: 8_192 },
  { family: 'claude-3-haiku', match: ['claude-3-haiku'], pricing: HAIKU_3, maxOutputTokens: 4_096 },
  { family: 'claude-haiku', match: ['claude-haiku', 'haiku'], pricing: HAIKU_4, maxOutputTokens: 32_000, cap: 64_000 },
  // Mythos is priced as the Fable of the same version. 5.2 not followed by a digit: `fable-5-2026…` would be a dated Fable 5.
  { family: 'claude-fable-5-2', match: [/(fable|mythos)-5-2(?!\d)/], pricing: FABLE_5_2, maxOutputTokens: 128_000, window: WINDOW_1M, fast: 2 },
  { family: 'claude-fable-5-1', match: ['fable-5-1', 'mythos-5-1'], pricing: FABLE_5_1, maxOutputTokens: 64_000, cap: 128_000, window: WINDOW_1M },
  { family: 'claude-fable-5', match: ['fable', 'mythos'], pricing: FABLE_5, maxOutputTokens: 64_000, cap: 128_000, window: WINDOW_1M },
]

/**
 * What an unknown id gets, as in Claude Code, which takes it for a model newer than its table:
 * Opus 5.5 prices (no fast rate), a million-token window, 32K output asked for and up to 128K allowed.
 */
export const DEFAULT_MODEL_INFO: ModelInfo = { family: 'default', pricing: OPUS_5_5, fastFactor: 1, contextWindow: WINDOW_1M, maxOutputTokens: 32_000, outputTokenCap: 128_000 }

export function modelInfo(model: string): ModelInfo {
  const id = model.toLowerCase()
  const row = TABLE.find((r) => r.match.some((m) => (typeof m === 'string' ? id.includes(m) : m.test(id))))
  if (row === undefined) return DEFAULT_MODEL_INFO
  return { family: row.family, pricing: row.pricing, fastFactor: row.fast ?? 1, contextWindow: row.window ?? WINDOW, maxOutputTokens: row.maxOutputTokens, outputTokenCap: row.cap ?? row.maxOutputTokens }
}

/** A 1-hour cache write costs twice the input price (a 5-minute one, `cacheWrite`, 1.25 times). */
const HOUR_WRITE_FACTOR = 2

/** A request served in the US only (`usage.inference_geo: 'us'`) pays every token rate 1.1 times. */
const US_GEO_FACTOR = 1.1

/** The API bills each search its server runs (the web search tool), whatever the model: $10 per 1,000. */
const WEB_SEARCH_USD = 0.01

/**
 * The cost of one request's usage in US dollars; missing counts are zero. Cache writes the API
 * split by time to live are priced by it; writes without a split count at the 5-minute rate.
 * A long prompt on a model with a long-context rate is priced at it whole, output included, and
 * so is a request served at fast speed or in the US only: the factors multiply.
 */
export function costUsd(model: string, usage: Partial<Usage>): number {
  const info = modelInfo(model)
  const p = info.pricing
  const prompt = (usage.input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0)
  const factor = (p.longContext && prompt > p.longContext.above ? p.longContext.factor : 1)
    * (usage.speed === 'fast' ? info.fastFactor : 1)
    * (usage.inference_geo === 'us' ? US_GEO_FACTOR : 1)
  const hour = Math.min(usage.cache_creation?.ephemeral_1h_input_tokens ?? 0, usage.cache_creation_input_tokens ?? 0)
  const cost = (usage.input_tokens ?? 0) * p.input
    + (usage.output_tokens ?? 0) * p.output
    + ((usage.cache_creation_input_tokens ?? 0) - hour) * p.cacheWrite
    + hour * p.input * HOUR_WRITE_FACTOR
    + (usage.cache_read_input_tokens ?? 0) * p.cacheRead
  return cost * factor / 1_000_000 + (usage.server_tool_use?.web_search_requests ?? 0) * WEB_SEARCH_USD
}

/**
 * A model's id as modelUsage names it (`canonicalModel`): a known model's without its cloud
 * prefix, `@`/`-v1:0` version, date, `-latest` or `[1m]` (`claude-sonnet-4-5`); an unknown id as given.
 */
export function canonicalModel(model: string): string {
  if (modelInfo(model).family === 'default') return model
  const id = model.toLowerCase().replace(/\[[^\]]*\]$/, '').replace(/@.*$/, '')
  const from = id.indexOf('claude-')
  return (from > 0 ? id.slice(from) : id).replace(/-v\d+(:\d+)?$/, '').replace(/-(\d{8}|latest)$/, '')
}

/** What a model's cost was worked out from: its list price, or the default one for an id modloop does not know. */
export function costBasis(model: string): 'list' | 'unknown' {
  return modelInfo(model).family === 'default' ? 'unknown' : 'list'
}

/**
 * The tokens a model reads. With CLAUDE_CODE_DISABLE_1M_CONTEXT on (`env`, the session's, when
 * given), a million-token model counts as a 200K one, as in Claude Code: compaction comes sooner.
 */
export function contextWindow(model: string, env?: Readonly<Record<string, string | undefined>>): number {
  const window = modelInfo(model).contextWindow
  return env && envTrue(env.CLAUDE_CODE_DISABLE_1M_CONTEXT) ? Math.min(window, WINDOW) : window
}

/** The output a request asks for by default. */
export function maxOutputTokens(model: string): number {
  return modelInfo(model).maxOutputTokens
}

/** The most output a request may ask for. */
export function outputTokenCap(model: string): number {
  return modelInfo(model).outputTokenCap
}
