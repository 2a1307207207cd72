import { join, resolve } from 'node:path'
import { realpathLoose } from '../_shared/allowed-paths.js'
import { parseRule } from './rule-parse.js'
import { homeOf, readLayers, type Layer, type LoadInput } from './settings-load.js'
import { workspaceTrusted } from './trust-store.js'
import type { Behavior, Ignored, Mode, Policy, RuleSource } from './types.js'

const BEHAVIORS: readonly Behavior[] = ['deny', 'ask', 'allow']
/** Modes that widen nothing: a project may set them without being trusted. */
export const NARROW_MODES: ReadonlySet<string> = new Set<Mode>(['default', 'plan'])

/**
 * Loads the policy of a session: every source, the workspace's trust, then the rules compiled.
 * In an untrusted workspace the project-level sources (project and local settings, the mod's
 * options) keep their deny and ask rules but lose what widens access: allow rules, a mode other
 * than default or plan, extra directories.
 */
export async function loadPolicy(input: LoadInput): Promise<Policy> {
  const { layers, trustFlag, warnings } = await readLayers(input)
  const trusted = await workspaceTrusted(input.cwd, trustFlag, input.options, input.env, warnings)
  const policy = await buildPolicy(layers, { cwd: input.cwd, home: homeOf(input.options), trusted, warnings })
  if (input.options.confineFileTools) policy.confined = true
  return policy
}

export async function buildPolicy(layers: readonly Layer[], ctx: { cwd: string; home: string; trusted: boolean; warnings?: string[] }): Promise<Policy> {
  const policy: Policy = { cwd: ctx.cwd, home: ctx.home, mode: 'default', rules: [], roots: { lexical: [], real: [] }, trusted: ctx.trusted, ignored: [], warnings: ctx.warnings ?? [] }
  const dirs: string[] = []
  let modeFromLaunch = false
  for (const layer of layers) {
    const gated = layer.source.projectLevel && !ctx.trusted
    const ignore = (entry: string) => policy.ignored.push({ source: layer.source.label, entry })
    for (const behavior of BEHAVIORS) {
      for (const text of layer[behavior]) {
        if (behavior === 'allow' && gated) ignore(`allow ${text}`)
        else await addRule(policy, text, behavior, layer.source)
      }
    }
    if (layer.defaultMode !== undefined && !modeFromLaunch) {
      if (gated && !NARROW_MODES.has(layer.defaultMode)) ignore(`defaultMode ${layer.defaultMode}`)
      else policy.mode = layer.defaultMode
      // The launch's own mode (--permission-mode, query()'s permissionMode) holds over managed policy's defaultMode too, as in Claude Code.
      modeFromLaunch = layer.source.name === 'cliArg'
    }
    // It only narrows, so an untrusted project may set it too.
    if (layer.disablesBypass) policy.bypassDisabledBy ??= layer.source.label
    for (const dir of layer.additionalDirectories) {
      if (gated) ignore(`additionalDirectories ${dir}`)
      else dirs.push(directoryOf(dir, ctx))
    }
  }
  if (policy.mode === 'bypassPermissions' && policy.bypassDisabledBy) {
    // Claude Code starts such a session in default mode instead of refusing it.
    policy.mode = 'default'
    policy.warnings.push(`${policy.bypassDisabledBy}: permissions.disableBypassPermissionsMode is "disable", so bypassPermissions is not entered; the session runs in default mode`)
  }
  await setRoots(policy, dirs)
  return policy
}

/** An additionalDirectories entry: `~/` is the home; a relative one starts at the cwd, whichever file names it, as in Claude Code. */
function directoryOf(dir: string, ctx: { cwd: string; home: string }): string {
  if (dir === '~' || dir.startsWith('~/')) return join(ctx.home, dir.slice(1))
  return resolve(ctx.cwd, dir)
}

/** Compiles one rule into the policy; a rule that cannot be read becomes a warning naming its source. */
export async function addRule(policy: Policy, text: string, behavior: Behavior, source: RuleSource): Promise<boolean> {
  const rule = await parseRule(text, behavior, source, { cwd: policy.cwd, home: policy.home })
  if (typeof rule === 'string') {
    policy.warnings.push(`${source.label}: permissions.${behavior}: "${text}" ${rule}; the other rules still apply`)
    return false
  }
  policy.rules.push(rule)
  return true
}

/** The working directories: the cwd, then the extra ones, each as given and as real path. */
export async function setRoots(policy: Policy, extra: readonly string[]): Promise<void> {
  const lexical = [...new Set([policy.cwd, ...extra.map((d) => resolve(policy.cwd, d))])]
  policy.roots = { lexical, real: await Promise.all(lexical.map(realpathLoose)) }
}

/** One warning for everything an untrusted workspace set that was not honoured. */
export function ignoredNotice(cwd: string, ignored: readonly Ignored[]): string {
  const rows = ignored.map((i) => `${i.entry} (${i.source})`).join('; ')
  return `this workspace is not trusted, so ${ignored.length === 1 ? 'one project setting that widens' : `${ignored.length} project settings that widen`} access ${ignored.length === 1 ? 'is' : 'are'} ignored: ${rows}. Deny and ask rules still apply. To honour them, run \`modloop trust ${cwd}\`, or pass --trust-workspace for one run.`
}
