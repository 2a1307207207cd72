#!/usr/bin/env node
import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createHooksRunner, HOOK_EVENTS, isHookEvent, loadHookSources, type LoadedHookSources } from './index.js'
import { renderRun, runSummary, withAsyncEnded } from './report.js'
import { describeCause } from './errors.js'

const USAGE = `usage: modloop-hooks list [--json] [--settings FILE|JSON]...
       modloop-hooks test <Event> [--tool NAME] [--input JSON|@file] [--settings FILE|JSON]... [--json]

Reads the settings hooks of the current directory (managed, ~/.claude/settings.json,
.claude/settings.json, .claude/settings.local.json, then each --settings). \`list\` prints them in
settings order with their files; \`test\` runs the hooks an event matches on a synthetic input and
prints each result and the merged decision (exit 2 when they block). Prompt, agent and mcp_tool
hooks need a host and are reported as unsupported here.`

const TOOL_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'PermissionDenied'])

class UsageError extends Error {}

/**
 * The standalone hooks-runner CLI (`modloop-hooks`): the library's own view of a directory's hooks,
 * with nothing of modloop's loop behind it. `modloop hooks …` is the same with the modloop config's
 * and plugins' hooks added.
 */
async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv, allowPositionals: true, strict: true,
    options: { json: { type: 'boolean' }, settings: { type: 'string', multiple: true }, input: { type: 'string' }, tool: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  })
  const [command, event] = positionals
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`)
    return values.help ? 0 : 1
  }
  const cwd = process.cwd()
  const loaded = await loadHookSources({ cwd, projectDir: cwd, home: process.env.HOME || homedir(), settingsFiles: values.settings })
  for (const e of loaded.errors) process.stderr.write(`modloop-hooks: ${e.message}\n`)
  if (command === 'list') return list(loaded, values.json === true)
  if (command !== 'test') throw new UsageError(`unknown command "${command}"`)
  if (!event || !isHookEvent(event)) throw new UsageError(`test needs an event, one of: ${HOOK_EVENTS.join(', ')}`)
  const tool = values.tool ?? (TOOL_EVENTS.has(event) ? 'Bash' : undefined)
  const input: Record<string, unknown> = {
    session_id: 'hooks-test', transcript_path: resolve(cwd, '.hooks-test.jsonl'), cwd, permission_mode: 'default', hook_event_name: event,
    ...(tool && TOOL_EVENTS.has(event) ? { tool_name: tool, tool_input: {}, tool_use_id: 'toolu_hooks_test' } : {}),
    ...inputArg(values.input, cwd),
  }
  const runner = createHooksRunner({ config: loaded.config, projectDir: cwd })
  const r = await withAsyncEnded(await runner.run(event, input))
  await runner.close()
  process.stdout.write(values.json === true ? `${JSON.stringify(runSummary(r), null, 2)}\n` : renderRun(r))
  return r.blocked || r.decision === 'deny' ? 2 : 0
}

function list(loaded: LoadedHookSources, json: boolean): number {
  const hooks = loaded.config.handlers.map((h) => ({
    event: h.event, matcher: h.matcher ?? '', type: h.config.type, command: h.name, source: h.source.label, file: h.source.file, path: h.path,
  }))
  if (json) {
    process.stdout.write(`${JSON.stringify({ hooks, files: loaded.files, disabled: loaded.disabled, errors: loaded.errors, warnings: loaded.warnings }, null, 2)}\n`)
  } else {
    if (hooks.length === 0) process.stdout.write('no settings hooks\n')
    for (const h of hooks) process.stdout.write(`${h.event}  ${h.matcher || '*'}  ${h.type}  ${h.command}  (${h.source}: ${h.file})\n`)
    for (const w of loaded.warnings) process.stdout.write(`warning: ${w.message}\n`)
  }
  return loaded.errors.length > 0 ? 1 : 0
}

function inputArg(raw: string | undefined, cwd: string): Record<string, unknown> {
  if (raw === undefined) return {}
  // `@file` names a file; anything else is the JSON itself.
  const text = raw.startsWith('@') ? readFileSync(resolve(cwd, raw.slice(1)), 'utf8') : raw
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    throw new UsageError(`--input is not JSON: ${describeCause(err)}`)
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new UsageError('--input must be a JSON object')
  return json as Record<string, unknown>
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code },
  (err: unknown) => {
    const usage = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    process.stderr.write(`modloop-hooks: ${describeCause(err)}${usage ? `\n${USAGE}` : ''}\n`)
    process.exitCode = usage ? 64 : 1
  },
)
