// Writes a generated docs page, or with `--check` exits 1 when the page on disk is stale: the one
// way every docs generator here runs, so a stale page reads the same whichever generator made it.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/** `page` is relative to the repository root (`docs/events.md`), `script` the generator (`scripts/docs-events.mjs`). */
export function writeOrCheck(page, script, text) {
  const file = `${root}${page}`
  if (!process.argv.includes('--check')) return writeFileSync(file, text)
  let current = ''
  try { current = readFileSync(file, 'utf8') } catch {}
  if (current !== text) {
    console.error(`${page} is stale: run \`node ${script}\``)
    process.exit(1)
  }
}
