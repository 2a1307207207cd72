import type { HookRunResult } from './index.js'

/**
 * The run once its async hooks ended, their records in settings order among the others (a hook
 * that printed `{"async": true}` shows how it really ended): `hooks test` waits for them, where a
 * session would carry on and hear from them later.
 */
export async function withAsyncEnded(r: HookRunResult): Promise<HookRunResult> {
  if (r.background.length === 0) return r
  const ended = (await Promise.all(r.background.map((h) => h.done))).map((b) => b.record)
  const ids = new Set(ended.map((h) => h.id))
  return { ...r, records: [...r.records.filter((h) => !ids.has(h.id)), ...ended].sort((a, b) => a.id - b.id) }
}

/** One run of `hooks test` as JSON: each hook's record and what the run adds up to. Both CLIs print it. */
export function runSummary(r: HookRunResult) {
  return {
    event: r.event, hookName: r.hookName,
    hooks: r.records.map((h) => ({ command: h.name, file: h.source.file, outcome: h.outcome, exitCode: h.exitCode, stdout: h.stdout, stderr: h.stderr, message: h.message, ...(h.async ? { async: true } : {}) })),
    merged: {
      blocked: r.blocked, blockReason: r.blockReason, decision: r.decision, decisionReason: r.decisionReason, updatedInput: r.updatedInput,
      additionalContext: r.additionalContexts.map((c) => c.text), systemMessages: r.systemMessages.map((m) => m.text), stop: r.stop,
      permissionRequest: r.permissionRequest, updatedToolOutput: r.updatedToolOutput,
      errors: r.errors.map((e) => `${e.hook}: ${e.message}`), warnings: r.warnings.map((w) => w.message),
    },
  }
}

/** The same run for a person: a block per hook, then the merged outcome without its empty fields. */
export function renderRun(r: HookRunResult): string {
  if (r.records.length === 0) return `no hook matches ${r.hookName}\n`
  const lines = r.records.flatMap((h) => [
    `${h.name}  (${h.source.label}: ${h.source.file})`,
    `  outcome ${h.outcome}${h.async ? ' (async)' : ''}, exit ${h.exitCode ?? '-'}, ${Math.round(h.durationMs)} ms${h.message ? `: ${h.message}` : ''}`,
    ...(h.stdout.trim() ? [`  stdout: ${h.stdout.trim()}`] : []),
    ...(h.stderr.trim() ? [`  stderr: ${h.stderr.trim()}`] : []),
  ])
  const merged = Object.entries(runSummary(r).merged).filter(([, v]) => v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0))
  return `${[...lines, `merged: ${JSON.stringify(Object.fromEntries(merged))}`].join('\n')}\n`
}
