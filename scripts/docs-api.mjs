// Generates docs/mod-api.md from the `$` interface (core/mod/api.ts), so the reference lists
// exactly what the host provides. `node scripts/docs-api.mjs --check` exits 1 when stale.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { writeOrCheck } from './generated-doc.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const src = readFileSync(`${root}core/mod/api.ts`, 'utf8')

/** The text between the braces that open at `from`, counting nested ones. */
function block(text, from) {
  let depth = 0
  for (let i = from; i < text.length; i++) {
    if (text[i] === '{') depth++
    else if (text[i] === '}' && --depth === 0) return text.slice(from + 1, i)
  }
  throw new Error('unbalanced braces in core/mod/api.ts')
}

/** Members of an interface body: `{ doc, text }`, a member's doc being the JSDoc right above it. */
function members(body) {
  const out = []
  let doc = ''
  let i = 0
  while (i < body.length) {
    const rest = body.slice(i)
    const space = /^\s+/.exec(rest)
    if (space) { i += space[0].length; continue }
    if (rest.startsWith('/**')) {
      const end = rest.indexOf('*/')
      doc = rest.slice(3, end).split('\n').map((l) => l.replace(/^\s*\*\s?/, '').trim()).filter(Boolean).join(' ')
      i += end + 2
      continue
    }
    if (rest.startsWith('//')) { i += rest.indexOf('\n') + 1; continue }
    // One member: up to the line's end, or past a brace block it opens.
    let j = 0
    let depth = 0
    for (; j < rest.length; j++) {
      const c = rest[j]
      if (c === '{' || c === '(') depth++
      else if (c === '}' || c === ')') depth--
      else if (c === '\n' && depth === 0) break
    }
    out.push({ doc, text: rest.slice(0, j).trim() })
    doc = ''
    i += j
  }
  return out
}

export function generate() {
  const head = src.indexOf('export interface ModApiCore {')
  const core = members(block(src, src.indexOf('{', head)))
  const out = [
    '# The `$` API',
    '',
    'Generated from `core/mod/api.ts` by `scripts/docs-api.mjs`; do not edit by hand.',
    '',
    '`$` holds only what modloop provides. Each method works from `session.start` on (during',
    '`register` it fails with `MODLOOP_ERR_NOT_BOUND`); outside a session, in a bare host, a method',
    'the loop serves fails with `MODLOOP_ERR_NO_PROVIDER` naming it. Mods add their own typed',
    'capabilities by declaration merging (see docs/mods.md).',
    '',
  ]
  for (const m of core) {
    const name = /^readonly (\w+)/.exec(m.text)?.[1]
    if (!name) continue
    out.push(`## \`$.${name}\``, '')
    if (m.doc) out.push(m.doc, '')
    const brace = m.text.indexOf('{')
    if (brace < 0 || !m.text.slice(name.length + 10).trimStart().startsWith('{')) {
      out.push('```ts', m.text, '```', '')
      continue
    }
    for (const f of members(block(m.text, brace))) {
      out.push(`- \`${f.text.replace(/\s*\n\s*/g, ' ')}\`${f.doc ? ` — ${f.doc}` : ''}`)
    }
    out.push('')
  }
  return out.join('\n')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeOrCheck('docs/mod-api.md', 'scripts/docs-api.mjs', generate())
