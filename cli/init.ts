import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { isPathSpec } from '../runtime/loader/resolve-spec.js'
import type { CommandRun } from './command.js'
import { distributionFiles } from './templates/distribution.js'
import { modFiles } from './templates/mod.js'
import { usageError } from './usage-error.js'

const KINDS = { mod: modFiles, distribution: distributionFiles } as const
const NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/

/**
 * `modloop init mod|distribution <name>`: scaffolds a directory `<name>` (under --dir, default the
 * current directory). A mod comes with its test on the test kit; a distribution extends the
 * default coding one. An existing directory is never written into.
 */
export const init: CommandRun = async ({ values, positionals, io }) => {
  const [kind, name] = positionals as [string, string]
  if (!Object.hasOwn(KINDS, kind)) throw usageError(`modloop init: "${kind}" is not something to scaffold; use "mod" or "distribution"`)
  if (!NAME.test(name)) throw usageError(`modloop init ${kind}: the name "${name}" must be kebab-case (a-z, 0-9 and single dashes, starting with a letter)`)
  const base = resolve(io.cwd, typeof values.dir === 'string' ? values.dir : '.')
  const dir = join(base, name)
  if (existsSync(dir)) {
    io.stderr.write(`modloop: init ${kind}: ${dir} already exists; nothing was written\n`)
    return 1
  }
  const files = KINDS[kind as keyof typeof KINDS](name)
  await mkdir(dir, { recursive: true })
  for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text)
  const shown = relative(io.cwd, dir) || '.'
  // `./` marks it a path wherever it is pasted (a mods entry, --config), never a package name.
  const path = isPathSpec(shown) ? shown : `./${shown}`
  io.stdout.write(`created ${shown}/: ${Object.keys(files).join(', ')}\n`)
  io.stdout.write(kind === 'mod'
    ? `next: add "${path}" to the "mods" of your modloop.config.json, and run its test with \`npx vitest run ${shown}\` (vitest and modloop installed in the project)\n`
    : `next: \`modloop mods list --config ${path}\`, then \`modloop -p "…" --config ${path}\`\n`)
  return 0
}
