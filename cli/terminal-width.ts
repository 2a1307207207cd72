import type { Io } from './io.js'

/** The width to fit output to: the terminal's when stdout is one, else COLUMNS, else 80. */
export function terminalWidth(io: Io): number {
  const columns = (io.stdout as { columns?: unknown }).columns
  if (typeof columns === 'number' && columns > 0) return columns
  const env = Number(io.env.COLUMNS)
  return Number.isInteger(env) && env > 0 ? env : 80
}

/** Each line cut to `width` characters, the cut marked with `…`. */
export function fitLines(text: string, width: number): string {
  return text.split('\n').map((l) => (l.length > width ? `${l.slice(0, Math.max(1, width - 1))}…` : l)).join('\n')
}
