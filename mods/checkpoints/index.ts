import { join, resolve } from 'node:path'
import { z } from 'zod'
import type { RewindFilesResult, RewindService } from '../../core/mod/session-capabilities.js'
import type { ModApi } from '../../core/mod/api.js'
import { defineMod } from '../../core/mod/define.js'
import { rewind } from './rewind.js'
import { CheckpointStore } from './store.js'
import { sessionDirOf } from '../transcripts/store/paths.js'
import { describeError } from '../../core/errors.js'
import { STAGE } from '../../core/bus/types.js'
import { builtinOptions } from '../_shared/builtin-options.js'

const options = builtinOptions('checkpoints', () => z.object({
  /** Checkpoint every session; otherwise only when the query asks (enableFileCheckpointing, --checkpoint). */
  enabled: z.boolean().default(false),
}))

/** The tools that change files, and the input field naming the file. */
const FILE_TOOLS: Record<string, string> = { Edit: 'file_path', Write: 'file_path', MultiEdit: 'file_path', NotebookEdit: 'notebook_path' }

/**
 * File checkpoints: before Edit or Write changes a file, its content (or its absence) is kept
 * with the session, once per file per prompt, on disk beside the transcript so a resumed session
 * (or a fork, which gets a copy) can still rewind. `Query.rewindFiles(userMessageId)` and
 * `/rewind` restore the files to their state before that prompt. A file only a Bash command
 * changed is not tracked; one an earlier prompt's Edit or Write changed is, whatever changes it.
 */
export default defineMod({
  name: 'checkpoints',
  description: 'File checkpoints for Query.rewindFiles and /rewind',
  options,
  provides: ['fileRewind'],
  register(on, opts) {
    const stores = new Map<string, CheckpointStore>()

    on('session.start', async ($, e, next) => {
      const result = await next(e)
      if (!opts.enabled && !(await askedFor($))) return result
      const store = new CheckpointStore(checkpointsOf(e.transcriptPath))
      // A fork copies the checkpoints with the history, as Claude Code does: its earlier prompts can still be rewound to.
      if (e.source === 'fork' && e.resumedFrom) store.copyFrom(checkpointsOf(e.resumedFrom.transcriptPath))
      if (e.source === 'resume' || e.source === 'fork') for (const warning of store.load()) $.log.warn(warning)
      stores.set(e.sessionId, store)
      const service: RewindService = (id, o) => rewind(store, id, o.dryRun === true)
      $.capability.provide('fileRewind', service)
      await $.command.register({ name: 'rewind', description: 'Restore the files edited since a prompt (default: the last one)', argumentHint: '[--dry-run] [turns back | user message id]', kind: 'local' })
      return result
    })

    on('session.message', ($, e, next) => {
      const m = e.message
      if (m.type === 'user' && !e.shown && !e.agentId && !m.isSynthetic && m.uuid && !isToolResult(m.message.content)) {
        for (const { path, error } of stores.get($.session.id() as string)?.startTurn(m.uuid) ?? []) {
          $.log.warn(`${path}: no checkpoint was kept as this prompt entered: ${describeError(error)}`)
        }
      }
      return next(e)
    })

    on('tool.call', ($, e, next) => {
      const field = FILE_TOOLS[e.tool]
      const store = stores.get($.session.id() as string)
      const path = field ? e[field] : undefined
      if (store && typeof path === 'string' && path !== '') {
        try {
          store.keep(resolve($.session.cwd() as string, path))
        } catch (err) {
          $.log.warn(`${path}: no checkpoint was kept before ${e.tool} changed it: ${describeError(err)}`)
        }
      }
      return next(e)
    // Innermost, beneath the settings hooks: the file kept is the one the tool writes, after a
    // PreToolUse hook's updatedInput rewrote the path, as Claude Code keeps it in the tool's call.
    }, { stage: STAGE.last, after: 'shell-hooks' })

    on('command.run', async ($, e, next) => {
      if (e.command !== 'rewind') return next(e)
      const store = stores.get($.session.id() as string)
      if (!store) return { output: 'File checkpointing is not enabled for this session (enableFileCheckpointing, or --checkpoint).' }
      const words = e.args.split(/\s+/).filter(Boolean)
      const dryRun = words.includes('--dry-run')
      const target = words.find((w) => w !== '--dry-run') ?? '1'
      const turn = /^\d+$/.test(target) ? store.turns.at(-Number(target)) : store.turns.find((t) => t.messageId === target)
      if (!turn) return { output: `No checkpoint to rewind to: ${/^\d+$/.test(target) ? `this session has ${store.turns.length} prompt${store.turns.length === 1 ? '' : 's'}` : `no prompt with id ${target}`}.` }
      return { output: summary(await rewind(store, turn.messageId, dryRun), dryRun) }
    })

    on('session.end', (_$, e, next) => {
      stores.delete(e.sessionId)
      return next(e)
    })
  },
})

const checkpointsOf = (transcriptPath: string) => join(sessionDirOf(transcriptPath), 'checkpoints')

async function askedFor($: ModApi): Promise<boolean> {
  try {
    const flags = (await $.settings.read({ source: 'flag' })) as { enableFileCheckpointing?: unknown }
    return flags?.enableFileCheckpointing === true
  } catch {
    return false
  }
}

const isToolResult = (content: unknown) => Array.isArray(content) && content.some((b: { type?: string }) => b?.type === 'tool_result')

function summary(r: RewindFilesResult, dryRun: boolean): string {
  if (!r.canRewind) return `Cannot rewind: ${r.error}`
  const files = r.filesChanged ?? []
  if (files.length === 0) return 'Nothing to rewind: the files are as they were before that prompt.'
  const verb = dryRun ? 'Would restore' : 'Restored'
  return `${verb} ${files.length} file${files.length === 1 ? '' : 's'} (+${r.insertions} -${r.deletions}):\n${files.map((f) => `  ${f}`).join('\n')}`
}
