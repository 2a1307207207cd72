import { envTrue } from '../env.js'
/**
 * What each model family accepts for reasoning: effort levels (`output_config.effort`) and
 * thinking modes. The loop clamps what a query asks for to this table before a request leaves,
 * so an option never turns into a 400 from a model that lacks it.
 */

export const EFFORT_LEVELS = ['low', 'medium', 'high', 'xhigh', 'max'] as const
export type EffortLevel = (typeof EFFORT_LEVELS)[number]

/**
 * What the API sends of the thinking: a summary of it, or nothing but the signature. Unset, each
 * model has its default (Opus 4.7 on: omitted), so asking for `summarized` is how thinking is seen there.
 */
export type ThinkingDisplay = 'summarized' | 'omitted'

/** The `thinking` option as the Agent SDK spells it. */
export type ThinkingOption =
  | { type: 'adaptive'; display?: ThinkingDisplay }
  | { type: 'enabled'; budgetTokens?: number; display?: ThinkingDisplay }
  | { type: 'disabled' }

/** The `thinking` request parameter as the Messages API takes it. */
export type ApiThinking =
  | { type: 'adaptive'; display?: ThinkingDisplay }
  | { type: 'enabled'; budget_tokens: number; display?: ThinkingDisplay }
  | { type: 'disabled' }

export interface ModelCapabilities {
  family: string
  /** Effort levels the model accepts, lowest first; empty when it takes no effort parameter. */
  effort: readonly EffortLevel[]
  /** Thinking modes it accepts. */
  thinking: readonly ('adaptive' | 'enabled')[]
}

const ALL: readonly EffortLevel[] = EFFORT_LEVELS
const UP_TO_MAX: readonly EffortLevel[] = ['low', 'medium', 'high', 'max']
const UP_TO_HIGH: readonly EffortLevel[] = ['low', 'medium', 'high']

/**
 * Most specific first; an id matches the first row one of whose strings it contains. The newest
 * models (Opus 4.7 on, every Claude 5) think only adaptively; 4.6 models take both forms; older
 * ones only a fixed budget.
 */
const TABLE: (ModelCapabilities & { match: string[] })[] = [
  { family: 'claude-opus-4-7+', match: ['opus-4-7', 'opus-4-8', 'opus-5', 'sonnet-5', 'haiku-5', 'fable', 'mythos'], effort: ALL, thinking: ['adaptive'] },
  { family: 'claude-opus-4-6', match: ['opus-4-6'], effort: UP_TO_MAX, thinking: ['adaptive', 'enabled'] },
  { family: 'claude-sonnet-4-6', match: ['sonnet-4-6'], effort: UP_TO_MAX, thinking: ['adaptive', 'enabled'] },
  { family: 'claude-opus-4-5', match: ['opus-4-5'], effort: UP_TO_HIGH, thinking: ['enabled'] },
  // Sonnet 3.7 can think, but Claude Code never asks it to (not even with MAX_THINKING_TOKENS set).
  { family: 'no-thinking', match: ['claude-3-5', 'claude-3-7', 'claude-3-opus', 'claude-3-haiku', 'claude-3-sonnet'], effort: [], thinking: [] },
  { family: 'claude-4', match: ['claude-opus-4', 'claude-sonnet-4', 'claude-haiku-4'], effort: [], thinking: ['enabled'] },
]

/** An id we do not know is taken to be a newer model: everything is passed on. */
const UNKNOWN: ModelCapabilities = { family: 'unknown', effort: ALL, thinking: ['adaptive', 'enabled'] }

export function capabilitiesOf(model: string): ModelCapabilities {
  const id = model.toLowerCase()
  return TABLE.find((r) => r.match.some((m) => id.includes(m))) ?? UNKNOWN
}

/** The highest level the model accepts at or below the one asked for; undefined when it takes none. */
export function clampEffort(model: string, requested: EffortLevel | undefined, thinkingOff = false): EffortLevel | undefined {
  if (requested === undefined) return undefined
  // Without thinking the API caps effort at high.
  const cap = thinkingOff ? Math.min(EFFORT_LEVELS.indexOf(requested), EFFORT_LEVELS.indexOf('high')) : EFFORT_LEVELS.indexOf(requested)
  const supported = capabilitiesOf(model).effort
  return [...supported].reverse().find((level) => EFFORT_LEVELS.indexOf(level) <= cap)
}

/** A fixed thinking budget must be at least this and below max_tokens. */
export const MIN_THINKING_BUDGET = 1_024

/**
 * The thinking parameter a request carries for this model, or undefined to send none. Unset, the
 * model thinks, as Claude Code has every model that can think do (spec: adaptive on the models that
 * have it): adaptively, or with a budget up to max_tokens where only a budget exists.
 */
export function clampThinking(model: string, requested: ThinkingOption | undefined, maxTokens: number, display?: ThinkingDisplay): ApiThinking | undefined {
  const thinking = clampMode(model, requested, maxTokens)
  return thinking && display && thinking.type !== 'disabled' ? { ...thinking, display } : thinking
}

function clampMode(model: string, requested: ThinkingOption | undefined, maxTokens: number): ApiThinking | undefined {
  const can = capabilitiesOf(model).thinking
  if (can.length === 0) return undefined
  requested ??= can.includes('adaptive') ? { type: 'adaptive' } : { type: 'enabled' }
  // A model that thinks only adaptively refuses "off" with a 400: there it thinks adaptively (effort sets how much).
  if (requested.type === 'disabled') return can.includes('enabled') ? { type: 'disabled' } : { type: 'adaptive' }
  // A fixed budget is deprecated where adaptive thinking exists, so adaptive stands in for it there.
  if (can.includes('adaptive')) return { type: 'adaptive' }
  // Adaptive asked of a model that has only a fixed budget: leave thinking at the model's default (off).
  if (requested.type === 'adaptive') return undefined
  if (maxTokens <= MIN_THINKING_BUDGET) return undefined
  const budget = Math.min(Math.max(requested.budgetTokens ?? maxTokens - 1, MIN_THINKING_BUDGET), maxTokens - 1)
  return { type: 'enabled', budget_tokens: budget }
}

/**
 * The thinking a query asks for: `thinking`, else the deprecated `maxThinkingTokens`, else the
 * environment's MAX_THINKING_TOKENS, as in Claude Code (0 turns thinking off; not a whole number, ignored).
 */
export function requestedThinking(o: { thinking?: ThinkingOption; maxThinkingTokens?: number }, env: Record<string, string | undefined>): ThinkingOption | undefined {
  if (o.thinking) return o.thinking
  const raw = env.MAX_THINKING_TOKENS?.trim()
  const budget = o.maxThinkingTokens ?? (raw && /^\d+$/.test(raw) ? Number(raw) : undefined)
  if (budget === undefined) return undefined
  return budget === 0 ? { type: 'disabled' } : { type: 'enabled', budgetTokens: budget }
}

/**
 * The effort a session asks for: CLAUDE_CODE_EFFORT_LEVEL, which Claude Code puts before `--effort`,
 * the `effort` option and `/effort` (a level in any case; `auto`, the model's default; any other
 * value ignored), else the session's own.
 */
export function askedEffort(own: EffortLevel | undefined, env: Record<string, string | undefined>): EffortLevel | undefined {
  const raw = env.CLAUDE_CODE_EFFORT_LEVEL?.trim().toLowerCase()
  if (raw === 'auto') return undefined
  return raw && (EFFORT_LEVELS as readonly string[]).includes(raw) ? raw as EffortLevel : own
}

/**
 * CLAUDE_CODE_DISABLE_THINKING on (`1`, `true`, `yes`, `on`): Claude Code then sends no `thinking`
 * parameter at all, whatever `--thinking` or MAX_THINKING_TOKENS ask, and leaves the effort as it is.
 */
export function thinkingDisabledByEnv(env: Record<string, string | undefined>): boolean {
  return envTrue(env.CLAUDE_CODE_DISABLE_THINKING)
}

/** The display the query asks for: the `thinking` option's own, else `thinkingDisplay` (`--thinking-display`). */
export function requestedDisplay(o: { thinking?: ThinkingOption; thinkingDisplay?: ThinkingDisplay }): ThinkingDisplay | undefined {
  return (o.thinking && 'display' in o.thinking ? o.thinking.display : undefined) ?? o.thinkingDisplay
}

/** The reasoning parameters of one request: both clamped to the model. */
export function reasoningParams(model: string, o: { effort?: EffortLevel; thinking?: ThinkingOption; display?: ThinkingDisplay; noThinking?: boolean }, maxTokens: number): { thinking?: ApiThinking; effort?: EffortLevel } {
  const thinking = o.noThinking ? undefined : clampThinking(model, o.thinking, maxTokens, o.display)
  const effort = clampEffort(model, o.effort ?? defaultEffort(model), thinking?.type === 'disabled')
  return { ...(thinking ? { thinking } : {}), ...(effort ? { effort } : {}) }
}

/**
 * The effort a request carries when none was asked for: the model's own default, sent as Claude
 * Code sends it, so a session costs and answers as it would there. The 5.5 generation (and Fable
 * and Mythos 5.2) default to medium, Opus 4.7 to xhigh, every other model that takes effort
 * (an unknown one too) to high.
 */
export function defaultEffort(model: string): EffortLevel | undefined {
  if (capabilitiesOf(model).effort.length === 0) return undefined
  const id = model.toLowerCase()
  if (/(?:opus|sonnet|haiku)-5-5|(?:fable|mythos)-5-2(?!\d)/.test(id)) return 'medium'
  return id.includes('opus-4-7') ? 'xhigh' : 'high'
}
