import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { RewindFilesResult } from '../../core/mod/session-capabilities.js'
import type { CheckpointStore } from './store.js'
import { describeError } from '../../core/errors.js'

/**
 * Restores every file changed since the prompt `messageId` to its content before that prompt's
 * turn: for each file, the copy kept by the earliest turn from there on that changed it. A file
 * that did not exist then is removed. `insertions` and `deletions` count the lines the rewind
 * adds and removes; with `dryRun` nothing is written.
 */
export async function rewind(store: CheckpointStore, messageId: string, dryRun: boolean): Promise<RewindFilesResult> {
  const at = store.turns.findIndex((t) => t.messageId === messageId)
  if (at === -1) return { canRewind: false, error: `No checkpoint for user message ${messageId} in this session.` }
  const targets = new Map<string, string | null>()
  for (const turn of store.turns.slice(at)) {
    for (const [path, blob] of turn.files) if (!targets.has(path)) targets.set(path, blob)
  }
  const { diffLines } = await import('diff')
  const plan: { path: string; target: Buffer | null }[] = []
  let insertions = 0
  let deletions = 0
  for (const [path, blob] of targets) {
    let target: Buffer | null
    try {
      target = blob === null ? null : store.read(blob)
    } catch (err) {
      return { canRewind: false, error: `The checkpoint of ${path} cannot be read: ${describeError(err)}` }
    }
    const current = existsSync(path) ? readFileSync(path) : null
    if (current === null ? target === null : target !== null && current.equals(target)) continue
    for (const part of diffLines(current?.toString('utf8') ?? '', target?.toString('utf8') ?? '')) {
      if (part.added) insertions += part.count ?? 0
      if (part.removed) deletions += part.count ?? 0
    }
    plan.push({ path, target })
  }
  if (!dryRun) {
    for (const { path, target } of plan) {
      try {
        if (target === null) rmSync(path, { force: true })
        else {
          mkdirSync(dirname(path), { recursive: true })
          writeFileSync(path, target)
        }
      } catch (err) {
        return { canRewind: false, error: `${path} could not be restored: ${describeError(err)}`, filesChanged: plan.map((p) => p.path) }
      }
    }
  }
  return { canRewind: true, filesChanged: plan.map((p) => p.path), insertions, deletions }
}
