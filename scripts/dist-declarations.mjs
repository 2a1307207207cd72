// For the generators of files kept from the build (tool-schemas.mjs, option-defaults.mjs): the
// built modules of mods/ whose sources call a declaring function, imported, so that every
// declaration the function keeps a table of is made (some modules load only when used).
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/** A module of dist/, by its path there (`mods/_shared/builtin-input.js`). */
export const dist = (path) => import(new URL(`../dist/${path}`, import.meta.url).href)

/** Imports the built module of every mods/ source calling `fn(` but the one (`definedIn`) that defines it. */
export async function importDeclaring(fn, definedIn) {
  const declaring = readdirSync(`${root}mods`, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith(definedIn) && readFileSync(`${root}mods/${f}`, 'utf8').includes(`${fn}(`))
  for (const f of declaring) await dist(`mods/${f.replace(/\.ts$/, '.js')}`)
}
