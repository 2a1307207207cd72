import { z } from 'zod'
import { onFirstUse } from '../../core/on-first-use.js'
import type { ModApi } from '../../core/mod/api.js'
import { describeError } from '../../core/errors.js'
import type { Rules } from './rules.js'

export interface ClassifierOptions {
  model?: string
  instructions?: string
  maxTokens: number
}

export type Ruling = { decision: 'allow' | 'deny'; reason: string } | { decision: 'undecided'; reason: string }

/** The classifier's instructions: allowed by default, blocked by the rules' deny sections (rules.ts). */
function systemPrompt(rules: Rules): string {
  const section = (title: string, entries: readonly string[]) => (entries.length > 0 ? [title, ...entries.map((e) => `- ${e}`)] : [])
  return [
    'You review one tool call that an AI coding agent wants to make on a user\'s machine, in place of the user, who is not watching.',
    'Allow the call unless a block rule below covers it.',
    ...section('Environment (what the user trusts):', rules.environment),
    ...section('Always block, even when the user asked for it:', rules.hard_deny),
    ...section('Block, unless an allow rule below covers the call or the user clearly asked for it:', rules.soft_deny),
    ...section('Allow (exceptions to the block rules):', rules.allow),
    'Answer with one JSON object and nothing else: {"decision": "allow" | "deny", "reason": "<one sentence>"}.',
  ].join('\n')
}

// Built on first use: only a call the classifier is asked about reads an answer.
const answer = onFirstUse(() => z.object({ decision: z.enum(['allow', 'deny']), reason: z.string().min(1) }))

/**
 * Asks the classifier model whether a call that would need approval may run. Its reply is model
 * output, so it is validated: anything but the JSON verdict leaves the call undecided.
 */
export async function classify($: ModApi, opts: ClassifierOptions, call: { tool: string; input: unknown; cwd: string; why?: string }, rules: Rules, signal?: AbortSignal): Promise<Ruling> {
  const prompt = [
    `Working directory: ${call.cwd}`,
    `Tool: ${call.tool}`,
    `Input: ${JSON.stringify(call.input)}`,
    ...(call.why ? [`Why it needs approval: ${call.why}`] : []),
    ...(opts.instructions ? [`The user's rules for this review: ${opts.instructions}`] : []),
  ].join('\n')
  let reply: { isAnswered: boolean; text?: string; reason?: string; error?: string }
  try {
    reply = (await $.model.complete({ model: opts.model, system: systemPrompt(rules), prompt, maxTokens: opts.maxTokens }, { signal })) as typeof reply
  } catch (err) {
    return { decision: 'undecided', reason: `the classifier could not be asked: ${describeError(err)}` }
  }
  if (!reply.isAnswered || !reply.text) return { decision: 'undecided', reason: `the classifier gave no answer (${reply.reason ?? 'empty'}${reply.error ? `: ${reply.error}` : ''})` }
  const json = /\{[\s\S]*\}/.exec(reply.text)?.[0]
  let parsed: z.infer<ReturnType<typeof answer>> | undefined
  try {
    parsed = json ? answer().parse(JSON.parse(json)) : undefined
  } catch {
    parsed = undefined
  }
  if (!parsed) return { decision: 'undecided', reason: `the classifier's reply was not a verdict: ${reply.text.slice(0, 200)}` }
  return parsed
}
