import type { ModApi } from '../../core/mod/api.js'

interface ModelFigures { inputTokens: number; outputTokens: number; cacheReadInputTokens: number; cacheCreationInputTokens: number; costUSD: number }
interface Usage { startedAt: number; cost?: { usd?: number; apiDurationMs?: number }; models?: Record<string, ModelFigures>; lines?: { added: number; removed: number } }

/** Dollars as `/cost` shows them: cents past half a dollar, four decimals below. */
export const usd = (n: number): string => `$${n > 0.5 ? n.toFixed(2) : n.toFixed(4)}`

/** `1h 2m 3.4s`, `2m 0.5s`, `3.4s`. */
export function duration(ms: number): string {
  const s = ms / 1000
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const rest = `${(s % 60).toFixed(1)}s`
  return h > 0 ? `${h}h ${m}m ${rest}` : m > 0 ? `${m}m ${rest}` : rest
}

const lines = (n: number): string => `${n} line${n === 1 ? '' : 's'}`

/** Token counts as `/cost` shows them: `950`, `1.2k`, `3.4m`. */
export function tokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}m`
  if (n >= 1_000) return `${(n / 1_000).toFixed(1).replace(/\.0$/, '')}k`
  return String(n)
}

/**
 * `/cost`: what the session spent so far — its cost (an estimate from the price catalog, subagents
 * included), how long its model requests took, how long it has been open, the lines its edits
 * added and removed, and tokens by model.
 */
export async function costText($: ModApi): Promise<string> {
  const u = (await $.session.usage()) as Usage
  const models = Object.entries(u.models ?? {})
  const rows = [
    `Estimated cost:        ${usd(u.cost?.usd ?? 0)}`,
    `Total duration (API):  ${duration(u.cost?.apiDurationMs ?? 0)}`,
    `Total duration (wall): ${duration(Math.max(0, Date.now() - u.startedAt))}`,
    `Total code changes:    ${lines(u.lines?.added ?? 0)} added, ${lines(u.lines?.removed ?? 0)} removed`,
  ]
  if (models.length === 0) return [...rows, 'Usage:                 0 input, 0 output, 0 cache read, 0 cache write'].join('\n')
  const width = Math.max(...models.map(([name]) => name.length)) + 1
  return [
    ...rows,
    'Usage by model:',
    ...models.map(([name, m]) => `  ${`${name}:`.padEnd(width)}  ${tokens(m.inputTokens)} input, ${tokens(m.outputTokens)} output, ${tokens(m.cacheReadInputTokens)} cache read, ${tokens(m.cacheCreationInputTokens)} cache write (${usd(m.costUSD)})`),
  ].join('\n')
}
