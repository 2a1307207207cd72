import { createHooksRunner, type HookRecord } from '../hooks-runner/index.js'
import type { HookSource } from '../runtime/loader/types.js'
import type { ProposedVerdict } from '../core/events/types.js'
import { shellHooksOptions } from '../mods/shell-hooks/options.js'
import { loadSources } from '../mods/shell-hooks/sources.js'

/** What the PreToolUse hooks said about a call, and which hook said it. */
export interface HookVerdict {
  decision: 'allow' | 'ask' | 'deny' | 'defer'
  reason?: string
  /** The deciding hook: its command (or URL), where it is configured. */
  hook: { name: string; label: string; file: string }
  updatedInput?: Record<string, unknown>
  /** As the shell-hooks mod passes an allow, ask or defer to the permission check (tool.check's `verdict`). */
  pending?: ProposedVerdict
}

export interface HookCheckInput {
  cwd: string
  tool: string
  input: Record<string, unknown>
  mode: string
  /** The shell-hooks mod's options as the distribution sets them (undefined: the mod is not loaded). */
  modOptions: unknown
  configHooks: readonly HookSource[]
  settings?: readonly string[]
  env: Record<string, string | undefined>
}

/**
 * Runs the PreToolUse hooks a session would run for this call — the same sources the shell-hooks
 * mod reads — and returns the merged decision with the hook that made it; undefined when none
 * decided (no hook matched, or none gave a decision or a new input).
 */
export async function preToolUse(input: HookCheckInput): Promise<{ verdict?: HookVerdict; problems: string[] }> {
  const opts = shellHooksOptions.parse(input.modOptions ?? {})
  const loaded = await loadSources({
    cwd: input.cwd, home: opts.home, managedDir: opts.managedDir, settingSources: opts.settingSources, walkUpToGitRoot: opts.walkUpToGitRoot,
    settings: input.settings, config: input.configHooks, env: input.env,
  })
  const problems = loaded.errors.map((e) => e.message)
  if (!loaded.config.handlers.some((h) => h.event === 'PreToolUse')) return { problems }
  const runner = createHooksRunner({ config: loaded.config, projectDir: input.cwd, env: input.env as NodeJS.ProcessEnv })
  try {
    const r = await runner.run('PreToolUse', {
      session_id: 'permissions-check', transcript_path: '', cwd: input.cwd, permission_mode: input.mode, hook_event_name: 'PreToolUse',
      tool_name: input.tool, tool_input: input.input, tool_use_id: 'toolu_permissions_check',
    })
    problems.push(...r.errors.map((e) => `${e.hook}: ${e.message}`))
    const denied = r.decision === 'deny' || (r.blocked && r.decision !== 'defer')
    const decision = denied ? 'deny' : r.decision
    if (decision === undefined && !r.updatedInput) return { problems }
    const by = decider(r.records, decision) ?? r.records[0]!
    const hook = { name: by.name, label: by.source.label, file: by.source.file }
    const reason = denied ? r.decisionReason ?? r.blockReason : r.decisionReason
    return {
      problems,
      verdict: {
        decision: decision ?? 'allow', hook, ...(reason ? { reason } : {}),
        ...(r.updatedInput && !denied && decision !== 'defer' ? { updatedInput: r.updatedInput } : {}),
        ...(decision && decision !== 'deny' ? { pending: { decision, hook: r.hookName, ...(reason ? { reason } : {}) } } : {}),
      },
    }
  } finally {
    await runner.close()
  }
}

/** The first hook whose own answer is the merged one: a block for a deny, else the same decision. */
function decider(records: readonly HookRecord[], decision: string | undefined): HookRecord | undefined {
  if (decision === 'deny') return records.find((h) => h.effect.permission === 'deny' || h.effect.block !== undefined)
  if (decision) return records.find((h) => h.effect.permission === decision)
  return records.find((h) => h.effect.specific.updatedInput !== undefined)
}
