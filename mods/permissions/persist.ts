import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { addRule, setRoots } from './policy.js'
import { ruleText } from './rule-parse.js'
import { type Mode, type Policy, type RuleSource, type SourceName } from './types.js'
import { describeError } from '../../core/errors.js'
import { onFirstUse } from '../../core/on-first-use.js'
import { permissionModeSchema } from '../../core/permission-modes.js'
import { writeJsonAtomic } from '../_shared/json-file.js'

/**
 * `PermissionUpdate` (spec loop-and-sdk §1.5), as canUseTool's `updatedPermissions` carries it.
 * Built on first use: only an answer that keeps a permission update carries one.
 */
export const permissionUpdate = onFirstUse(() => {
  const destination = z.enum(['userSettings', 'projectSettings', 'localSettings', 'session', 'cliArg'])
  const ruleValue = z.object({ toolName: z.string().min(1), ruleContent: z.string().optional() })
  const rulesOf = <T extends string>(type: T) => z.object({ type: z.literal(type), rules: z.array(ruleValue), behavior: z.enum(['allow', 'deny', 'ask']), destination })
  const dirsOf = <T extends string>(type: T) => z.object({ type: z.literal(type), directories: z.array(z.string().min(1)), destination })
  return z.discriminatedUnion('type', [
    rulesOf('addRules'), rulesOf('replaceRules'), rulesOf('removeRules'),
    z.object({ type: z.literal('setMode'), mode: permissionModeSchema, destination }),
    dirsOf('addDirectories'), dirsOf('removeDirectories'),
  ])
})
export type PermissionUpdate = z.output<ReturnType<typeof permissionUpdate>>
type Destination = PermissionUpdate['destination']

export interface PersistContext {
  /** The live policy of the session; the update applies to it at once. */
  policy: Policy
  cwd: string
  /** The user's `.claude` folder (for `userSettings`). */
  claudeDir: string
  /** Switches the mode through its owner, so the switch is told like any other; without it the policy's mode is set. */
  setMode?(mode: Mode): void
}

/** What a rule given for this session alone (a `session` or `cliArg` update) names as its source. */
export const SESSION_LABEL = 'this session'

/** The settings file a destination names; `session` and `cliArg` live only in memory. */
export function settingsFileFor(dest: Destination, ctx: { cwd: string; claudeDir: string }): string | undefined {
  if (dest === 'userSettings') return join(ctx.claudeDir, 'settings.json')
  if (dest === 'projectSettings') return join(ctx.cwd, '.claude', 'settings.json')
  if (dest === 'localSettings') return join(ctx.cwd, '.claude', 'settings.local.json')
  return undefined
}

/**
 * Applies one update: to the session's policy at once (the user just chose it, so it holds even
 * where the workspace is not trusted), and, for a file destination, merged into that settings
 * file, which is created when missing. Answers the file written, if any.
 */
export async function persistUpdate(raw: unknown, ctx: PersistContext): Promise<{ file?: string }> {
  const parsed = permissionUpdate().safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(`permissions: a permission update is malformed at ${issue?.path.join('.') || '(update)'}: ${issue?.message}`)
  }
  const update = parsed.data
  const file = settingsFileFor(update.destination, ctx)
  if (file) await mergeIntoFile(file, update)
  const source: RuleSource = { name: sourceName(update.destination), label: file ?? SESSION_LABEL, root: ctx.cwd, projectLevel: false }
  if (update.type === 'setMode' && ctx.setMode) ctx.setMode(update.mode)
  else await applyToPolicy(ctx.policy, update, source)
  return file ? { file } : {}
}

function sourceName(dest: Destination): SourceName {
  return dest === 'cliArg' ? 'cliArg' : dest
}

async function applyToPolicy(policy: Policy, update: PermissionUpdate, source: RuleSource): Promise<void> {
  switch (update.type) {
    case 'setMode':
      policy.mode = update.mode
      return
    case 'addDirectories':
    case 'removeDirectories': {
      const current = policy.roots.lexical.slice(1)
      const given = update.directories.map((d) => resolve(policy.cwd, d))
      await setRoots(policy, update.type === 'addDirectories' ? [...current, ...given] : current.filter((d) => !given.includes(d)))
      return
    }
    default: {
      const texts = update.rules.map(ruleText)
      const sameSource = (r: Policy['rules'][number]) => r.behavior === update.behavior && r.source.label === source.label
      if (update.type !== 'addRules') {
        policy.rules = policy.rules.filter((r) => !(sameSource(r) && (update.type === 'replaceRules' || texts.includes(r.text))))
      }
      if (update.type !== 'removeRules') for (const text of texts) await addRule(policy, text, update.behavior, source)
    }
  }
}

async function mergeIntoFile(file: string, update: PermissionUpdate): Promise<void> {
  let settings: Record<string, unknown> = {}
  try {
    const json: unknown = JSON.parse(await readFile(file, 'utf8'))
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('it does not hold a JSON object')
    settings = json as Record<string, unknown>
  } catch (err) {
    // A file that exists but cannot be read is left alone rather than overwritten.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`permissions: ${file} was not updated: ${describeError(err)}`)
  }
  const permissions = (settings.permissions ??= {}) as Record<string, unknown>
  const listOf = (key: string) => (Array.isArray(permissions[key]) ? (permissions[key] as unknown[]) : [])
  switch (update.type) {
    case 'setMode':
      permissions.defaultMode = update.mode
      break
    case 'addDirectories':
      permissions.additionalDirectories = [...new Set([...listOf('additionalDirectories'), ...update.directories])]
      break
    case 'removeDirectories':
      permissions.additionalDirectories = listOf('additionalDirectories').filter((d) => !update.directories.includes(d as string))
      break
    default: {
      const texts = update.rules.map(ruleText)
      const kept = update.type === 'replaceRules' ? [] : listOf(update.behavior).filter((r) => update.type !== 'removeRules' || !texts.includes(r as string))
      permissions[update.behavior] = update.type === 'removeRules' ? kept : [...new Set([...kept, ...texts])]
    }
  }
  await writeJsonAtomic(file, settings)
}
