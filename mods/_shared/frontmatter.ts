import { createRequire } from 'node:module'
import { describeError } from '../../core/errors.js'
import { requireVendor } from '../../core/vendor.js'

// The YAML parser loads on the first frontmatter, not at start-up: most sessions read none.
type Yaml = typeof import('yaml')
let yaml: Yaml | undefined
const loadYaml = (): Yaml => requireVendor<{ p0: Yaml }>('yaml.cjs', () => ({ p0: createRequire(import.meta.url)('yaml') as Yaml })).p0
const parseYaml = (text: string): unknown => (yaml ??= loadYaml()).parse(text)

/** A markdown file split into its YAML frontmatter and its body. */
export interface Frontmatter {
  /** The frontmatter mapping; empty when there is none or it could not be read. */
  data: Record<string, unknown>
  /** The text after the closing `---` (the whole text when there is no frontmatter). */
  body: string
  /** Why the frontmatter could not be read; the body is still usable. */
  error?: string
  /** Lines that are not valid YAML, read leniently as plain text: worth telling the author. */
  warning?: string
}

// The block must open on the very first line; a `---` further down is a markdown rule, not frontmatter.
const BLOCK = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/

/**
 * Splits `---` YAML frontmatter from a markdown file (commands, skills, rules, agents). Malformed
 * YAML does not lose the file: the caller gets the body and an `error` to report with the file name.
 */
export function splitFrontmatter(text: string): Frontmatter {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  if (!/^---[ \t]*\r?\n/.test(source)) return { data: {}, body: source }
  const m = BLOCK.exec(source)
  if (!m) return { data: {}, body: source, error: 'the frontmatter opened with --- is never closed' }
  const body = source.slice(m[0].length)
  let data: unknown
  try {
    data = parseYaml(m[1] ?? '')
  } catch (err) {
    const lenient = parseQuoted(m[1] ?? '')
    if (lenient === undefined) return { data: {}, body, error: `malformed frontmatter: ${describeError(err).split('\n')[0]}` }
    const warning = brokenLines(m[1] ?? '')
    return warning ? { data: lenient, body, warning } : { data: lenient, body }
  }
  if (data === null || data === undefined) return { data: {}, body }
  if (typeof data !== 'object' || Array.isArray(data)) return { data: {}, body, error: 'the frontmatter is not a mapping of keys to values' }
  return { data: data as Record<string, unknown>, body }
}

/**
 * The top-level lines YAML cannot read on their own, by their line in the file (the opening
 * `---` is line 1). `argument-hint: [file] [line]` is left out: its brackets are what its author meant.
 */
function brokenLines(yaml: string): string | undefined {
  const bad = yaml.split(/\r?\n/).flatMap((line, i) => {
    const m = /^([A-Za-z0-9_-]+):[ \t]+(.+?)[ \t]*$/.exec(line)
    if (!m || m[1] === 'argument-hint' || /^["'|>]/.test(m[2]!)) return []
    try {
      parseYaml(line)
      return []
    } catch {
      return [`line ${i + 2} (${line.trim()})`]
    }
  })
  return bad.length > 0 ? `frontmatter ${bad.join(', ')} is not valid YAML; read as plain text` : undefined
}

/**
 * A second reading of frontmatter YAML rejects, with each top-level value taken as a plain
 * string. Hand-written files often hold values such as `argument-hint: [file] [line]`, which YAML
 * reads as a broken list but whose author meant the text. Undefined when that does not help.
 */
function parseQuoted(yaml: string): Record<string, unknown> | undefined {
  const quoted = yaml.split(/\r?\n/).map((line) => {
    const m = /^([A-Za-z0-9_-]+):[ \t]+(.+?)[ \t]*$/.exec(line)
    if (!m || /^["'|>]/.test(m[2]!)) return line
    return `${m[1]}: ${JSON.stringify(m[2])}`
  }).join('\n')
  try {
    const data: unknown = parseYaml(quoted)
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/**
 * A list field written either as a YAML list or as one string of items separated by commas or
 * spaces. Separators inside brackets do not split, so `Bash(git add:*)` and `*.{ts,tsx}` stay whole.
 */
export function listField(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined
  const items = Array.isArray(value) ? value.map(String) : splitTopLevel(String(value))
  const out = items.map((s) => s.trim()).filter(Boolean)
  return out.length > 0 ? out : undefined
}

function splitTopLevel(text: string): string[] {
  const out: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '(' || c === '{' || c === '[') depth++
    else if ((c === ')' || c === '}' || c === ']') && depth > 0) depth--
    else if (depth === 0 && (c === ',' || c === ' ' || c === '\t')) {
      out.push(text.slice(start, i))
      start = i + 1
    }
  }
  out.push(text.slice(start))
  return out
}
