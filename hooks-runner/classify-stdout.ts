import { describeCause } from './errors.js'
export type StdoutKind =
  | { kind: 'empty' }
  /** `brokenJson`: the text opens with `{` but does not parse (the parser's complaint). */
  | { kind: 'text'; text: string; brokenJson?: string }
  /** `skipped` counts the non-empty lines of noise (profile banners) before the JSON. */
  | { kind: 'json'; value: Record<string, unknown>; skipped: number }

// Banner detection tries each later line that opens an object; a bound keeps huge outputs linear enough.
const MAX_CANDIDATES = 50

function parseObject(text: string): { value?: Record<string, unknown>; error?: string } {
  try {
    const v: unknown = JSON.parse(text)
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? { value: v as Record<string, unknown> } : {}
  } catch (err) {
    return { error: describeCause(err) }
  }
}

const asObject = (text: string) => parseObject(text).value

/**
 * Classifies a hook's stdout (spec §3.1): text that is a JSON object is JSON, anything else (an
 * array, a quoted string, broken JSON) is plain text — broken JSON marked, so the caller can warn.
 * Leniently (R11): a UTF-8 BOM is stripped, and when lines of noise precede a JSON object that runs
 * to the end of the output, the noise is skipped.
 */
export function classifyStdout(stdout: string): StdoutKind {
  const text = stdout.replace(/^\uFEFF/, '')
  const trimmed = text.trim()
  if (trimmed === '') return { kind: 'empty' }
  let brokenJson: string | undefined
  if (trimmed.startsWith('{')) {
    const parsed = parseObject(trimmed)
    if (parsed.value) return { kind: 'json', value: parsed.value, skipped: 0 }
    brokenJson = parsed.error
  }
  if (trimmed.endsWith('}')) {
    const lines = text.split(/\r?\n/)
    let tried = 0
    for (let i = 1; i < lines.length && tried < MAX_CANDIDATES; i++) {
      if (!lines[i]!.trimStart().startsWith('{')) continue
      tried++
      const value = asObject(lines.slice(i).join('\n'))
      if (value) return { kind: 'json', value, skipped: lines.slice(0, i).filter((l) => l.trim() !== '').length }
    }
  }
  return brokenJson === undefined ? { kind: 'text', text: trimmed } : { kind: 'text', text: trimmed, brokenJson }
}

/** Strips ANSI escape sequences (WorktreeCreate paths, banners). */
export function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g, '')
}

/** Only OSC 0/1/2/9/99/777 and bare BEL may reach the terminal; anything else drops the whole field (§3.4). */
export function terminalSequenceAllowed(seq: string): boolean {
  return /^(?:\u0007|\u001b\](?:0|1|2|9|99|777);[^\u0007\u001b]*(?:\u0007|\u001b\\))+$/.test(seq)
}
