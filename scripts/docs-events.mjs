// Generates docs/events.md from the event catalog (core/events/catalog.ts and types.ts), so the
// reference cannot drift from the code. `node scripts/docs-events.mjs --check` exits 1 when stale.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { writeOrCheck } from './generated-doc.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const catalogSrc = readFileSync(`${root}core/events/catalog.ts`, 'utf8')
const typesSrc = readFileSync(`${root}core/events/types.ts`, 'utf8')
// Kinds, policies and budgets come from the built catalog itself (run after `npm run build`).
const { catalog } = await import(new URL('../dist/core/events/catalog.js', import.meta.url).href)

/** The TypeScript text of a named type or interface in types.ts. */
function typeText(name) {
  const body = interfaceBody(name)
  if (body !== undefined) return `{ ${body.replace(/\s*\n\s*/g, '; ').replace(/^;\s*|;\s*$/g, '').trim()} }`
  const alias = new RegExp(`export type ${name} =([\\s\\S]*?)\\n(?=\\n|export|/\\*\\*)`, 'm').exec(typesSrc)
  return alias ? alias[1].replace(/\s*\n\s*/g, ' ').trim() : name
}

/** The text between an interface's own braces: members may hold object types, so braces are counted, not searched for. */
function interfaceBody(name) {
  const head = new RegExp(`export interface ${name}(?: extends [^{]+)? \\{`).exec(typesSrc)
  if (!head) return undefined
  const start = head.index + head[0].length
  let depth = 1
  for (let i = start; i < typesSrc.length; i++) {
    if (typesSrc[i] === '{') depth++
    else if (typesSrc[i] === '}' && --depth === 0) return typesSrc.slice(start, i)
  }
  return undefined
}

const FIRES = {
  session: 'in every session',
  turn: 'in every turn of the main loop',
  tool: 'with every tool call',
  occasion: 'only when its occasion arises',
}

export function generate() {
  const map = /export interface EventMap \{([\s\S]*?)\n\}/.exec(catalogSrc)[1]
  const rows = [...map.matchAll(/'([\w.]+)': \{ e: T\.(\w+); r: T\.(\w+)(?:; chunk: T\.(\w+))? \}/g)]
  const out = [
    '# Events',
    '',
    'Generated from `core/events/catalog.ts` by `scripts/docs-events.mjs`; do not edit by hand.',
    '',
    'Every handler is `($, e, next) => result`. **observe**: the result and any rewrite are ignored.',
    '**rewrite**: a handler may pass a changed `e` to `next` and post-process the result, but must call',
    '`next`. **answer**: a handler may also return its own result without calling `next`. A handler',
    'that throws, returns the wrong shape or overruns its own-time budget is skipped (fail open);',
    'on **closable** events a handler registered with `failClosed: true` (or whose `.catch` answers)',
    'denies instead. Pinned fields may not be rewritten.',
    '',
  ]
  for (const [, name, e, r, chunk] of rows) {
    const spec = catalog[name]
    const when = spec.when.charAt(0).toUpperCase() + spec.when.slice(1)
    out.push(`## \`${name}\``, '', `${when}.`, '')
    out.push(`- kind: **${spec.kind}**, failure policy: **${spec.policy}**, own-time budget: ${spec.budgetMs.toLocaleString('en-US')} ms${spec.stream ? ', streaming (handlers are async generators)' : ''}`)
    out.push(`- fires: ${FIRES[spec.fires.in]}${spec.fires.subagent ? ", and in a subagent's loop (with `agentId`)" : ''}`)
    if (spec.pinned) out.push(`- pinned: ${spec.pinned.map((p) => `\`${p}\``).join(', ')}`)
    if (spec.key) out.push(`- matcher key: \`${spec.key}\``)
    out.push(`- payload \`${e}\`: \`${typeText(e)}\``)
    out.push(`- result \`${r}\`: \`${typeText(r)}\``)
    if (chunk) out.push(`- chunks \`${chunk}\`: \`${typeText(chunk)}\``)
    out.push('')
  }
  return out.join('\n')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeOrCheck('docs/events.md', 'scripts/docs-events.mjs', generate())
