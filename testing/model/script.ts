import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { extname, resolve } from 'node:path'
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages'
import { describeError, ModloopError } from '../../core/errors.js'
import { apiErrorTypeFor } from '../../core/model/api-errors.js'
import { eventsForStep, type CountedUsage, type ScriptRequest } from './script-events.js'
import { isErrorStep, parseScript, type ReplyStep, type Script, type StepExpect, type StepWhen } from './script-schema.js'

export { assembleMessage, estimateJsonTokens, estimateTokens, eventsForStep, type CountedUsage, type ScriptRequest } from './script-events.js'
export {
  isErrorStep, parseScript, type ErrorStep, type ReplyStep, type Script, type ScriptBlock, type Step, type StepExpect,
} from './script-schema.js'

/**
 * Reads a script from a .json file or a module's default export (.js/.mjs/.cjs/.ts/.mts through
 * jiti, which the CLI's CommonJS bundle can load where it cannot `import()`), or validates a
 * script value given directly.
 */
export async function loadScript(pathOrValue: unknown): Promise<Script> {
  if (typeof pathOrValue !== 'string') return parseScript(pathOrValue)
  const file = resolve(pathOrValue)
  if (!existsSync(file)) throw new ModloopError('MODLOOP_ERR_SCRIPT', `model script: no such file: ${file}`, { file })
  let value: unknown
  try {
    const ext = extname(file)
    if (ext === '.json') value = JSON.parse(await readFile(file, 'utf8'))
    else {
      const { createJiti } = await import('jiti')
      value = await createJiti(import.meta.url).import(file, { default: true })
    }
  } catch (err) {
    throw new ModloopError('MODLOOP_ERR_SCRIPT', `model script ${file} could not be read: ${describeError(err)}`, { file, cause: err })
  }
  return parseScript(value, file)
}

/** What a script answers to one request. */
export type ScriptAnswer =
  | { kind: 'reply'; stepIndex: number; step: ReplyStep; events: RawMessageStreamEvent[] }
  | {
    kind: 'error'
    stepIndex: number
    status: number
    /** The Messages API error type (`rate_limit_error`, …). */
    type: string
    message: string
    /** True when the script has no step left; such a failure is not worth retrying. */
    exhausted: boolean
    /** The `retry-after` header to send, if any. */
    retryAfter?: string
  }

export interface ScriptCursor {
  /** Answers the next request and moves on; every request consumes a step (or one `times`). `counted`: usage worked out for it. */
  next(request: ScriptRequest, counted?: CountedUsage): ScriptAnswer
  /** How many requests have been answered. */
  readonly requestCount: number
}

/**
 * Walks a script one request at a time — the one place that decides which step answers. A step
 * with `when` answers the first request that matches it; the others are taken in order.
 */
export function createScriptCursor(script: Script): ScriptCursor {
  const spent = new Set<number>()
  const repeats = new Map<number, number>()
  let requestCount = 0
  const pick = (request: ScriptRequest): number | undefined => {
    const open = script.steps.map((step, i) => ({ step, i })).filter(({ i }) => !spent.has(i))
    return (open.find(({ step }) => step.when && whenMatches(step.when, request)) ?? open.find(({ step }) => !step.when))?.i
  }
  return {
    get requestCount() { return requestCount },
    next(request, counted) {
      requestCount++
      const index = pick(request)
      const step = index === undefined ? undefined : script.steps[index]
      if (step === undefined || index === undefined) {
        const left = script.steps.length - spent.size
        const message = `model script exhausted after ${script.steps.length} steps (request ${requestCount} has no step${left > 0 ? `; ${left} left wait for requests they match` : ''})`
        return { kind: 'error', stepIndex: script.steps.length, status: 500, type: 'api_error', message, exhausted: true }
      }
      const repeat = (repeats.get(index) ?? 0) + 1
      if (!isErrorStep(step) || repeat >= (step.times ?? 1)) spent.add(index)
      else repeats.set(index, repeat)
      const mismatch = step.expect ? expectMismatch(step.expect, request) : null
      if (mismatch !== null) {
        const message = `model script step ${index}: the request did not match expect: ${mismatch}`
        return { kind: 'error', stepIndex: index, status: 400, type: 'invalid_request_error', message, exhausted: false }
      }
      if (isErrorStep(step)) {
        const { status } = step.error
        const type = step.error.type ?? apiErrorTypeFor(status)
        const message = step.error.message ?? `scripted ${type} (HTTP ${status}) at step ${index}`
        // Tests should not wait on real backoff: a throttle or an overload asks for an immediate retry unless told.
        const retryAfter = step.retryAfter === undefined ? (status === 429 || status === 529 ? '0' : undefined) : (step.retryAfter ?? undefined)
        return { kind: 'error', stepIndex: index, status, type, message, exhausted: false, ...(retryAfter !== undefined ? { retryAfter } : {}) }
      }
      return { kind: 'reply', stepIndex: index, step, events: eventsForStep(step, request, index, counted) }
    },
  }
}

function whenMatches(when: StepWhen, request: ScriptRequest): boolean {
  const messages = Array.isArray(request.messages) ? (request.messages as { role?: unknown; content?: unknown }[]) : []
  const textOf = (m: { content?: unknown } | undefined) => contentOf(m).map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('\n')
  if (when.firstUserText !== undefined && !textOf(messages.find((m) => m?.role === 'user')).includes(when.firstUserText)) return false
  if (when.lastUserText !== undefined && !textOf(messages.findLast((m) => m?.role === 'user')).includes(when.lastUserText)) return false
  return true
}

/** Describes every way `request` differs from `expect`, or null when it fits. */
export function expectMismatch(expect: StepExpect, request: ScriptRequest): string | null {
  const problems: string[] = []
  if (expect.model !== undefined && request.model !== expect.model) {
    problems.push(`model is ${JSON.stringify(request.model)}, expected ${JSON.stringify(expect.model)}`)
  }
  const last = lastUserContent(request)
  if (expect.lastUserText !== undefined) {
    const text = last.map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('\n')
    if (!text.includes(expect.lastUserText)) {
      problems.push(`last user text ${JSON.stringify(clip(text))} does not contain ${JSON.stringify(expect.lastUserText)}`)
    }
  }
  if (expect.toolResults !== undefined) {
    const count = last.filter((b) => b.type === 'tool_result').length
    if (count !== expect.toolResults) problems.push(`last user message has ${count} tool results, expected ${expect.toolResults}`)
  }
  return problems.length > 0 ? problems.join('; ') : null
}

type LooseBlock = { type?: unknown; text?: unknown }

function lastUserContent(request: ScriptRequest): LooseBlock[] {
  const messages = Array.isArray(request.messages) ? (request.messages as { role?: unknown; content?: unknown }[]) : []
  return contentOf(messages.findLast((m) => m?.role === 'user'))
}

function contentOf(message: { content?: unknown } | undefined): LooseBlock[] {
  if (message === undefined) return []
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }]
  return Array.isArray(message.content) ? (message.content as LooseBlock[]) : []
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}
