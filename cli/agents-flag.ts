import type { QueryOptions } from '../runtime/options.js'
import { readJsonArg } from './json-arg.js'
import { usageError } from './usage-error.js'
import { sdkAgentIssues } from '../mods/agent/sdk-agents.js'

/**
 * `--agents <json|file>`: subagents by name, as query()'s `agents` takes them (the agent mod reads
 * them from there). A JSON object, or the path of a file holding one. Checked now, as Claude Code
 * does: a definition the agent mod would leave out (no prompt, `tools` not a list) refuses the run.
 */
export function agentsFlag(value: string | undefined, cwd: string): QueryOptions['agents'] {
  if (value === undefined) return undefined
  const { json, where } = readJsonArg('--agents', value, cwd)
  if (!isObject(json)) throw usageError(`--agents: ${where} is not a JSON object of agent definitions by name`)
  for (const [name, def] of Object.entries(json)) {
    const issues = sdkAgentIssues(def)
    if (issues) throw usageError(`--agents: ${where}: "${name}": ${issues}`)
  }
  return json as QueryOptions['agents']
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
