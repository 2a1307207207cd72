import { uuid } from '../../core/random.js'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ContextItem, HookRunResult } from '../../hooks-runner/index.js'
import { describeError } from '../../core/errors.js'

/** Hook output strings longer than this go to a file (spec loop-and-sdk §3.5, settings-hooks §3.6). */
export const OUTPUT_CAP = 10_000
const PREVIEW = 2_000

/**
 * Replaces each hook output string over the cap — context, system messages, block and deny
 * reasons, a `continue: false` reason, a PermissionRequest message — by the path of a file in the
 * session directory holding the whole text, plus its first 2,000 characters, so one hook cannot
 * flood the context. A file that cannot be written leaves the preview with a note saying so.
 */
export async function capOutput(r: HookRunResult, sessionDir: string): Promise<HookRunResult> {
  const long = (s: string | undefined) => s !== undefined && s.length > OUTPUT_CAP
  const reasons = [r.blockReason, r.decisionReason, r.stop?.reason, r.permissionRequest?.message]
  if (!r.additionalContexts.some((c) => long(c.text)) && !r.systemMessages.some((c) => long(c.text)) && !reasons.some(long)) return r
  // A deny's reason is usually its block reason too: one file for both.
  const saved = new Map<string, Promise<string>>()
  const cap = (text: string) => {
    if (!long(text)) return Promise.resolve(text)
    if (!saved.has(text)) saved.set(text, capText(text, r.hookName, sessionDir))
    return saved.get(text)!
  }
  const maybe = async (text: string | undefined) => (text === undefined ? undefined : cap(text))
  const items = (list: ContextItem[]) => Promise.all(list.map(async (c) => ({ ...c, text: await cap(c.text) })))
  const [blockReason, decisionReason, stopReason, message] = await Promise.all(reasons.map(maybe))
  return {
    ...r,
    additionalContexts: await items(r.additionalContexts),
    systemMessages: await items(r.systemMessages),
    ...(blockReason !== undefined ? { blockReason } : {}),
    ...(decisionReason !== undefined ? { decisionReason } : {}),
    ...(r.stop ? { stop: { ...r.stop, ...(stopReason !== undefined ? { reason: stopReason } : {}) } } : {}),
    ...(r.permissionRequest ? { permissionRequest: { ...r.permissionRequest, ...(message !== undefined ? { message } : {}) } } : {}),
  }
}

/** One output string: as it is within the cap, else saved whole and replaced by the path and its start. */
export async function capText(text: string, hookName: string, sessionDir: string): Promise<string> {
  if (text.length <= OUTPUT_CAP) return text
  const dir = join(sessionDir, 'hook-output')
  const file = join(dir, `${hookName.replace(/[^\w.-]+/g, '_')}-${uuid()}.txt`)
  const head = `${hookName} hook output was ${text.length} characters`
  try {
    await mkdir(dir, { recursive: true })
    await writeFile(file, text)
    // Said as "saved", not "whole": the runner may have cut a huge output before it came here (it says so at the end).
    return `${head}; it is saved in ${file}. Its start:\n${text.slice(0, PREVIEW)}`
  } catch (err) {
    return `${head} and could not be saved (${describeError(err)}). Its start:\n${text.slice(0, PREVIEW)}`
  }
}
