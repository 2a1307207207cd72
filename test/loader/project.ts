import { afterEach } from 'vitest'
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Builtins } from '../../runtime/loader/types.js'
import { readPluginDir } from '../../mods/_shared/plugin-format/read-plugin.js'

export interface Project {
  dir: string
  path(rel: string): string
  write(files: Files): Promise<void>
  remove(): Promise<void>
}

/** File path → contents; an object is written as JSON. */
export type Files = Record<string, string | object>

/** A real project on disk under the OS temp dir (realpath'd, so paths compare equal). */
export async function project(files: Files = {}): Promise<Project> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-loader-')))
  const p: Project = {
    dir,
    path: (rel) => join(dir, rel),
    write: async (more) => {
      for (const [rel, body] of Object.entries(more)) {
        const file = join(dir, rel)
        await mkdir(dirname(file), { recursive: true })
        await writeFile(file, typeof body === 'string' ? body : JSON.stringify(body, null, 2))
      }
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  }
  await p.write(files)
  return p
}

/** A bare mod module that registers one tool.call handler and records its options on the host state. */
export const bareMod = (extra = '') => `export function register(on, options) {
  on('tool.call', ($, e, next) => next(e))
  ${extra}
}
`

/** A defineMod TS mod with a zod options schema, written as a mod author would. */
export const typedMod = (name: string, schema = 'z.object({ level: z.number().int().default(1) })') => `import { defineMod, type On } from 'modloop'
import { z } from 'zod'

export const options = ${schema}

export default defineMod({
  name: '${name}',
  version: '1.0.0',
  options,
  register(on: On, opts: z.output<typeof options>) {
    on('tool.call', ($, e, next) => next(e))
  },
})
`

/** An injected built-in set, so tests do not depend on what mods/index.ts holds. */
export function builtins(names: string[] = [], defaults: string[] = names): Builtins {
  const mods = Object.fromEntries(names.map((n) => [n, async () => ({ register() {} })]))
  return { mods, defaultDistribution: defaults, hostModule: () => import('../../index.js') as Promise<Record<string, unknown>>, readPlugin: readPluginDir }
}

/** `tmp(files)` makes a project removed after each test of the file that calls this once. */
export function projectsPerTest(): (files: Files) => Promise<Project> {
  const made: Project[] = []
  afterEach(async () => {
    await Promise.all(made.splice(0).map((p) => p.remove()))
  })
  return async (files) => {
    const p = await project(files)
    made.push(p)
    return p
  }
}
