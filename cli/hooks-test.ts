import { resolve } from 'node:path'
import { createHooksRunner, isHookEvent, HOOK_EVENTS } from '../hooks-runner/index.js'
import type { CommandRun } from './command.js'
import { cliLlm } from './hooks-llm.js'
import { loadForCli } from './hooks-list.js'
import { usageError } from './usage-error.js'
import { readJsonArg } from './json-arg.js'
import { renderRun, runSummary, withAsyncEnded } from '../hooks-runner/report.js'

const TOOL_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'PermissionDenied'])

/**
 * `modloop hooks test <Event>`: runs the hooks that match a synthetic input — the common fields, the
 * tool for tool events, then `--input` (JSON text or @file) on top — without running the agent, and
 * prints each hook's exit code and output and the merged decision. Exit 2 when a hook blocks.
 * Prompt and agent hooks ask the model once (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL; see hooks-llm.ts).
 */
export const hooksTest: CommandRun = async ({ values, positionals, io }) => {
  const event = positionals[0]!
  if (!isHookEvent(event)) throw usageError(`unknown hook event "${event}"; events: ${HOOK_EVENTS.join(', ')}`)
  const extra = inputArg(values.input, io.cwd)
  const tool = typeof values.tool === 'string' ? values.tool : TOOL_EVENTS.has(event) ? 'Bash' : undefined
  const input: Record<string, unknown> = {
    session_id: 'hooks-test', transcript_path: resolve(io.cwd, '.modloop-hooks-test.jsonl'), cwd: io.cwd, permission_mode: 'default', hook_event_name: event,
    ...(tool && TOOL_EVENTS.has(event) ? { tool_name: tool, tool_input: {}, tool_use_id: 'toolu_hooks_test' } : {}),
    ...extra,
  }
  const loaded = await loadForCli(values, io)
  for (const e of loaded.errors) io.stderr.write(`modloop: ${e.message}\n`)
  const runner = createHooksRunner({ config: loaded.config, projectDir: io.cwd, env: await withSettingsEnv(values, io) as NodeJS.ProcessEnv, llm: cliLlm(io.env) })
  const r = await withAsyncEnded(await runner.run(event, input))
  await runner.close()
  if (values.json === true) io.stdout.write(`${JSON.stringify(runSummary(r), null, 2)}\n`)
  else io.stdout.write(renderRun(r))
  return r.blocked || r.decision === 'deny' ? 2 : 0
}

/** The hooks see the settings files' `env` as in a session (the settings-env mod's rules, trust included). */
async function withSettingsEnv(values: Parameters<CommandRun>[0]['values'], io: Parameters<CommandRun>[0]['io']): Promise<Record<string, string | undefined>> {
  const { readSettingsEnv } = await import('../mods/settings-env/read-env.js')
  const flags = {
    ...(Array.isArray(values.settings) ? { settings: values.settings.map(String) } : {}),
    ...(values['trust-workspace'] === true ? { trustWorkspace: true } : {}),
  }
  const read = await readSettingsEnv({ cwd: io.cwd, places: { home: io.env.CLAUDE_CONFIG_DIR ? undefined : io.env.HOME || undefined }, flags, env: io.env })
  for (const w of read.warnings) io.stderr.write(`modloop: ${w}\n`)
  return { ...io.env, ...Object.fromEntries(read.values) }
}

function inputArg(raw: unknown, cwd: string): Record<string, unknown> {
  if (typeof raw !== 'string') return {}
  // `@file` names a file; anything else is the JSON itself.
  const { json } = readJsonArg('--input', raw.startsWith('@') ? raw.slice(1) : raw, cwd)
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw usageError('--input must be a JSON object')
  return json as Record<string, unknown>
}

