import type { ProvenanceRecord } from '../../core/trace/record.js'

const WIDTH = 160

/**
 * One line per record: which mod, on which event, did what. For objects only the fields that
 * changed are shown (`command: "rm -rf /" → "ls"`), so a rewrite reads as what it changed.
 */
export function describeRecord(r: ProvenanceRecord): string {
  return `${r.event.padEnd(17)} ${r.mod.padEnd(20)} ${r.kind.padEnd(7)} ${describeChange(r.kind, r.before, r.after)}`
}

export function describeChange(kind: ProvenanceRecord['kind'], before: unknown, after: unknown): string {
  // An answer or a denial is read for what it says, not for what it replaced.
  if (kind === 'answer' || kind === 'deny') return clip(show(after))
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => show(before[k]) !== show(after[k]))
    const parts = keys.map((k) => (k in after ? (k in before ? `${k}: ${clip(show(before[k]), 60)} → ${clip(show(after[k]), 60)}` : `+${k}: ${clip(show(after[k]), 80)}`) : `-${k}`))
    return clip(parts.join('; '))
  }
  return clip(`${show(before)} → ${show(after)}`)
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const show = (v: unknown): string => (v === undefined ? 'undefined' : JSON.stringify(v) ?? String(v))
const clip = (s: string, width = WIDTH): string => (s.length > width ? `${s.slice(0, width - 1)}…` : s)
