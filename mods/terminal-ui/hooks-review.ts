import { relative } from 'node:path'
import type { Distribution } from '../../runtime/loader/types.js'
import { askApproval } from './approval-ask.js'
import type { App } from './app.js'
import type { Paint } from './color.js'
import type { MessageView } from './message-view.js'
import type { ShellHooksOptions } from '../shell-hooks/options.js'
import { loadSources } from '../shell-hooks/sources.js'
import { approveProjectHooks, projectHookFingerprints, trustStorePath, type ProjectHookFingerprint } from '../shell-hooks/trust.js'
import { describeError } from '../../core/errors.js'

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
    void view.print(paint.yellow(`the project hooks could not be reviewed: ${describeError(err)}`))
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
  await askApproval(app, view, paint, {
    noun: ['project hook', 'project hooks'], from: 'of this folder', rows,
    warning: 'Project hooks run code on your machine during the session.',
    verb: 'run', fingerprints: hooks.map((h) => h.fingerprint), declined: input.declined,
    approve: (fingerprints) => approveProjectHooks(store, input.cwd, fingerprints), store,
    approvedFor: `for ${input.cwd}`, keptOff: 'the hooks stay left out',
  })
}
