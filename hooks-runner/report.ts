import type { HookRunResult } from './index.js'

/** One run of `hooks test` as JSON: each hook's record and what the run adds up to. Both CLIs print it. */
export function runSummary(r: HookRunResult) {
  return {
    event: r.event, hookName: r.hookName,
    hooks: r.records.map((h) => ({ command: h.name, file: h.source.file, outcome: h.outcome, exitCode: h.exitCode, stdout: h.stdout, stderr: h.stderr, message: h.message })),
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
    `  outcome ${h.outcome}, exit ${h.exitCode ?? '-'}, ${Math.round(h.durationMs)} ms${h.message ? `: ${h.message}` : ''}`,
    ...(h.stdout.trim() ? [`  stdout: ${h.stdout.trim()}`] : []),
    ...(h.stderr.trim() ? [`  stderr: ${h.stderr.trim()}`] : []),
  ])
  const merged = Object.entries(runSummary(r).merged).filter(([, v]) => v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0))
  return `${[...lines, `merged: ${JSON.stringify(Object.fromEntries(merged))}`].join('\n')}\n`
}
