import { z } from 'zod'
import { ModloopError } from '../../core/errors.js'
import { onFirstUse } from '../../core/on-first-use.js'
import { permissionModeSchema } from '../../core/permission-modes.js'

// Built on first use: only a run with a config file (or an `extends` chain) reads one.

/** One `mods` entry: `'spec'`, `['spec', options]` or `{ name: 'spec', options?, enabled? }`. */
export const modEntrySchema = onFirstUse(() => {
  const name = z.string().min(1)
  const options = z.record(z.string(), z.unknown())
  return z.union([
    name,
    z.tuple([name, options]),
    z.strictObject({ name, options: options.optional(), enabled: z.boolean().optional() }),
  ])
})

/** A distribution config as one file holds it, before extends are merged. */
export const configSchema = onFirstUse(() => {
  const name = z.string().min(1)
  const ruleList = z.array(z.string().min(1))
  return z.strictObject({
    extends: z.union([name, z.array(name)]).optional(),
    mods: z.array(modEntrySchema()).optional(),
    // Settings-hooks shaped (event → matcher groups); the shell-hooks mod validates the groups.
    hooks: z.record(z.string(), z.array(z.unknown())).optional(),
    model: z.string().optional(),
    // Settings-file shaped; the loader hands it to the permissions mod as options.
    permissions: z.strictObject({
      allow: ruleList.optional(), deny: ruleList.optional(), ask: ruleList.optional(),
      defaultMode: permissionModeSchema.optional(),
      additionalDirectories: z.array(z.string().min(1)).optional(),
    }).optional(),
    // Name → server config; the loader hands it to the mcp mod, which validates each server.
    mcpServers: z.record(z.string(), z.unknown()).optional(),
    compaction: z.record(z.string(), z.unknown()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    // Where sessions are kept instead of the local transcript files. Read by the entry point (the CLI
    // builds the store before the session opens, since a resume loads from it first), not by the loader.
    sessionStore: z.strictObject({ postgres: z.string().min(1) }).optional(),
  })
})

export type ModEntry = z.infer<ReturnType<typeof modEntrySchema>>
export type ConfigFile = z.infer<ReturnType<typeof configSchema>>

/**
 * Validates one config file's contents. An unknown key → MODLOOP_ERR_CONFIG_KEY naming the file and
 * key path (`mods[2].opts`); anything else → MODLOOP_ERR_CONFIG with the path and zod's message.
 */
export function parseConfig(raw: unknown, file: string): ConfigFile {
  const parsed = configSchema().safeParse(raw ?? {})
  if (parsed.success) return parsed.data
  const issue = pickIssue(parsed.error.issues)
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `"${formatPath([...issue.path, k])}"`)
    throw new ModloopError('MODLOOP_ERR_CONFIG_KEY', `${file}: unknown key ${keys.join(', ')}`, {
      file, field: formatPath([...issue.path, issue.keys[0]!]), stage: 'config',
    })
  }
  const field = formatPath(issue.path)
  const message = issue.code === 'invalid_union' && isModEntryPath(issue.path)
    ? 'expected "spec", ["spec", { options }] or { name, options?, enabled? }'
    : issue.message
  throw new ModloopError('MODLOOP_ERR_CONFIG', `${file}: ${field ? `"${field}"` : '(root)'}: ${message}`, {
    file, field, stage: 'config', cause: parsed.error,
  })
}

type Issue = z.core.$ZodIssue

/**
 * zod reports a union that no branch accepted with every branch's issues. When all branches but
 * one failed on the type itself, the remaining branch is the one the author meant: report its issue.
 */
function pickIssue(issues: readonly Issue[]): Issue {
  const issue = issues[0]!
  if (issue.code !== 'invalid_union') return issue
  const meant = issue.errors.filter((branch) => !branch.every((i) => i.code === 'invalid_type' && i.path.length === 0))
  if (meant.length !== 1 || meant[0]!.length === 0) return issue
  const inner = pickIssue(meant[0]!)
  return { ...inner, path: [...issue.path, ...inner.path] } as Issue
}

function isModEntryPath(path: readonly PropertyKey[]): boolean {
  return path.length === 2 && path[0] === 'mods' && typeof path[1] === 'number'
}

/** `['mods', 2, 'opts']` → `mods[2].opts`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else out += out ? `.${String(part)}` : String(part)
  }
  return out
}
