import type { Values } from './command.js'
import { usageError } from './usage-error.js'

/** A flag's string value, if it was given one. */
export function str(values: Values, key: string): string | undefined {
  const v = values[key]
  return typeof v === 'string' ? v : undefined
}

/** A flag's non-negative number; anything else is a usage error naming the flag. */
export function num(values: Values, key: string): number | undefined {
  const raw = values[key]
  if (raw === undefined) return undefined
  const n = Number(raw)
  if (typeof raw !== 'string' || !Number.isFinite(n) || n < 0) throw usageError(`--${key} takes a non-negative number, not "${String(raw)}"`)
  return n
}
