import { z } from 'zod'
import { EFFORT_LEVELS } from '../../core/model/capabilities.js'
import { onFirstUse } from '../../core/on-first-use.js'
import { extras, type AgentDefinition } from './definitions.js'

/** Where query()'s `agents` show in messages and as their source. */
export const SDK_AGENTS_SOURCE = 'query() agents'

// Built on first use: only query() callers that pass `agents` have any to read.
const sdkAgent = onFirstUse(() => z.looseObject({
  description: z.string().min(1),
  prompt: z.string(),
  tools: z.array(z.string()).optional(),
  disallowedTools: z.array(z.string()).optional(),
  model: z.string().optional(),
  maxTurns: z.number().int().positive().optional(),
  skills: z.array(z.string()).optional(),
  effort: z.enum(EFFORT_LEVELS).optional(),
  background: z.boolean().optional(),
  omitClaudeMd: z.boolean().optional(),
}))

// The AgentDefinition fields modloop reads; any other one set is named once as not honoured.
const READ = new Set(['description', 'prompt', 'tools', 'disallowedTools', 'model', 'maxTurns', 'skills', 'effort', 'background', 'omitClaudeMd'])

/** What is wrong with one agent definition, each field named (`tools: expected array`), or undefined when nothing is. */
export function sdkAgentIssues(def: unknown): string | undefined {
  const parsed = sdkAgent().safeParse(def)
  return parsed.success ? undefined : parsed.error.issues.map((i) => `${i.path.join('.') || 'definition'}: ${i.message}`).join('; ')
}

/**
 * query()'s `agents` (the Agent SDK's programmatic subagents) as agent types. They come after the
 * files and the config, so one of the same name replaces theirs. A bad entry is reported naming
 * its field and left out; fields modloop does not use are named.
 */
export function sdkAgents(raw: unknown, warn: (message: string) => void): AgentDefinition[] {
  if (raw === undefined) return []
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    warn(`${SDK_AGENTS_SOURCE}: expected an object of agent definitions by name, received ${Array.isArray(raw) ? 'an array' : typeof raw}`)
    return []
  }
  const out: AgentDefinition[] = []
  for (const [name, def] of Object.entries(raw as Record<string, unknown>)) {
    const parsed = sdkAgent().safeParse(def)
    if (!parsed.success) {
      warn(`${SDK_AGENTS_SOURCE}: "${name}": ${parsed.error.issues.map((i) => `${i.path.join('.') || 'definition'}: ${i.message}`).join('; ')}; left out`)
      continue
    }
    const unread = Object.keys(parsed.data).filter((k) => !READ.has(k) && parsed.data[k] !== undefined)
    if (unread.length > 0) warn(`${SDK_AGENTS_SOURCE}: "${name}": ${unread.join(', ')} ${unread.length === 1 ? 'is' : 'are'} not honoured by modloop`)
    const d = parsed.data
    out.push({
      name, description: d.description, prompt: d.prompt, tools: d.tools, disallowedTools: d.disallowedTools, model: d.model, maxTurns: d.maxTurns,
      source: SDK_AGENTS_SOURCE, scope: 'config', ...extras(d), ...(d.omitClaudeMd ? { omitClaudeMd: true } : {}),
    })
  }
  return out
}
