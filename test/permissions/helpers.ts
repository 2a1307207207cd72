import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { defineMod, type ModDefinition } from '../../core/mod/define.js'
import { ModHost } from '../../core/mod/host.js'
import bashMod from '../../mods/bash/index.js'
import writeMod from '../../mods/write/index.js'
import { buildPolicy } from '../../mods/permissions/policy.js'
import permissionsMod from '../../mods/permissions/index.js'
import type { Layer } from '../../mods/permissions/settings-load.js'
import type { Mode, Policy, RuleSource } from '../../mods/permissions/types.js'

/**
 * A sandbox for permission tests: `project` (the cwd, with src/, .git/ and symlinks), `home`
 * (standing in for the user's home; never the real one) and `outside` (a folder no rule covers).
 */
export interface Sandbox {
  root: string
  project: string
  home: string
  outside: string
  modloopHome: string
  remove(): Promise<void>
}

export async function sandbox(): Promise<Sandbox> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'modloop-perm-')))
  const project = join(root, 'project')
  const home = join(root, 'home')
  const outside = join(root, 'outside')
  for (const dir of [join(project, 'src', 'deep'), join(project, 'pkg', 'src'), join(project, '.git'), join(home, 'notes'), outside]) await mkdir(dir, { recursive: true })
  await writeFile(join(project, 'src', 'a.ts'), 'export {}\n')
  await writeFile(join(outside, 'secret.txt'), 'secret\n')
  // A link inside the project that leads out of it, and one that stays inside.
  await symlink(outside, join(project, 'out-link'))
  await symlink(join(project, 'src', 'a.ts'), join(project, 'in-link.ts'))
  return { root, project, home, outside, modloopHome: join(root, 'modloop-home'), remove: () => rm(root, { recursive: true, force: true }) }
}

/** Replaces `{project}`, `{home}`, `{outside}` in strings, deeply. */
export function fill<T>(value: T, box: Sandbox): T {
  const text = JSON.stringify(value)
    .replaceAll('{project}', box.project).replaceAll('{home}', box.home).replaceAll('{outside}', box.outside)
  return JSON.parse(text) as T
}

export interface PolicySpec {
  allow?: string[]
  ask?: string[]
  deny?: string[]
  mode?: Mode
  dirs?: string[]
  source?: Partial<RuleSource>
}

/** A policy from one source (the command line unless told), in a trusted workspace. */
export function policyOf(box: Sandbox, spec: PolicySpec = {}): Promise<Policy> {
  const source: RuleSource = { name: 'cliArg', label: 'the command line', root: box.project, projectLevel: false, ...spec.source }
  const layer: Layer = { source, allow: spec.allow ?? [], ask: spec.ask ?? [], deny: spec.deny ?? [], additionalDirectories: spec.dirs ?? [], defaultMode: spec.mode, disablesBypass: false }
  return buildPolicy([layer], { cwd: box.project, home: box.home, trusted: true })
}

/** The permissions mod with options, for hosts built in tests (query's own mods take no options). */
export function permissionsWith(options: Record<string, unknown>): ModDefinition {
  const parsed = permissionsMod.options!.parse(options)
  return defineMod({ ...permissionsMod, options: z.any(), register: (on, _o, $) => permissionsMod.register(on, parsed, $) }) as ModDefinition
}

/** A strict host with Bash, Write, `extra` and the permissions mod, its home and trust store in the sandbox (plan mode's tests). */
export async function planHost(box: Sandbox, ...extra: Parameters<ModHost['add']>[0][]): Promise<ModHost> {
  const host = new ModHost({ strict: true })
  for (const mod of [bashMod, writeMod, ...extra]) await host.add(mod, { options: {} })
  await host.add(permissionsWith({ home: box.home, trustStore: join(box.modloopHome, 'trusted.json') }))
  return host
}
