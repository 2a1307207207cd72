import { relative } from 'node:path'
import type { Distribution } from '../../core/loader/types.js'
import type { App } from './app.js'
import type { Paint } from './color.js'
import type { MessageView } from './message-view.js'
import type { ShellHooksOptions } from '../shell-hooks/options.js'
import { loadSources } from '../shell-hooks/sources.js'
import { approveProjectHooks, projectHookFingerprints, trustStorePath, type ProjectHookFingerprint } from '../shell-hooks/trust.js'

const SHOWN = 6

export interface ReviewInput {
  dist: Distribution
  cwd: string
  /** `--settings` values, read as shell-hooks reads them. */
  settings?: readonly string[]
  env: Record<string, string | undefined>
  /** Fingerprints declined earlier in this terminal run: not asked about again until it ends. */
  declined: Set<string>
}

/**
 * The project hooks (`.claude/settings*.json`) the shell-hooks mod of `dist` would leave out of
 * the session for want of approval in this workspace: new ones and changed ones (a change is a
 * new fingerprint). None when shell-hooks is not loaded or is told to run unapproved hooks.
 */
export async function unapprovedProjectHooks(input: ReviewInput): Promise<{ hooks: ProjectHookFingerprint[]; store: string } | undefined> {
  const mod = input.dist.host.get('shell-hooks')
  if (mod?.status !== 'loaded') return undefined
  const opts = mod.options as Partial<ShellHooksOptions>
  if (opts.skipUnapprovedProjectHooks === false) return undefined
  const loaded = await loadSources({
    cwd: input.cwd, home: opts.home, managedDir: opts.managedDir, settingSources: opts.settingSources, walkUpToGitRoot: opts.walkUpToGitRoot,
    settings: input.settings, config: input.dist.hooks, env: input.env,
  })
  const store = opts.trustStore ?? trustStorePath({}, input.env)
  const hooks = (await projectHookFingerprints(loaded.config, input.cwd, store)).filter((h) => !h.approved && !input.declined.has(h.fingerprint))
  return hooks.length > 0 ? { hooks, store } : undefined
}

/**
 * Asks once per new or changed project hook before the session starts: approving records the
 * fingerprints (the next start does not ask), declining starts the session without those hooks.
 */
export async function reviewProjectHooks(app: App, view: MessageView, paint: Paint, input: ReviewInput): Promise<void> {
  let found: Awaited<ReturnType<typeof unapprovedProjectHooks>>
  try {
    found = await unapprovedProjectHooks(input)
  } catch (err) {
    void view.print(paint.yellow(`the project hooks could not be reviewed: ${(err as Error).message}`))
    return
  }
  if (!found) return
  const { hooks, store } = found
  const n = hooks.length
  const rows = hooks.slice(0, SHOWN).flatMap((h) => [
    `  ${h.event}${h.matcher ? ` [${h.matcher}]` : ''}: ${h.command.replace(/\s+/g, ' ')}`,
    `    from ${relative(input.cwd, h.file) || h.file}`,
  ])
  if (n > SHOWN) rows.push(`  … and ${n - SHOWN} more (modloop hooks list shows them all)`)
  const { value } = await app.choose([
    `${n === 1 ? 'A project hook' : `${n} project hooks`} of this folder, new or changed, not approved yet:`,
    ...rows,
    'Project hooks run code on your machine during the session.',
  ], [
    { label: n === 1 ? 'Yes, run it (asked again if it changes)' : 'Yes, run them (asked again if they change)', value: true },
    { label: n === 1 ? 'No, start without it' : 'No, start without them', value: false },
  ], false)
  if (!value) {
    for (const h of hooks) input.declined.add(h.fingerprint)
    void view.print(paint.yellow(`Not approved: this session runs without ${n === 1 ? 'it' : 'them'}; the next start asks again.`))
    return
  }
  try {
    await approveProjectHooks(store, input.cwd, hooks.map((h) => h.fingerprint))
    void view.print(paint.dim(`Approved ${n} project hook${n === 1 ? '' : 's'} for ${input.cwd}.`))
  } catch (err) {
    void view.print(paint.red(`the approval could not be saved in ${store}: ${(err as Error).message}; the hooks stay left out`))
  }
}
