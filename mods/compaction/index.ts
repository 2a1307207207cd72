import { z } from 'zod'
import { STAGE } from '../../core/bus/types.js'
import type { ModApi } from '../../core/mod/api.js'
import { defineMod } from '../../core/mod/define.js'
import { toolResultsDirOf } from '../_shared/session-dir.js'
import { AutoCompaction, type Policy } from './auto.js'
import { summarize } from './summarize.js'
import { autoThreshold } from './threshold.js'
import { AutoCompactSetting } from './auto-compact-setting.js'
import { globalConfigFile } from '../_shared/config-places.js'
import { envTrue } from '../../core/env.js'
import { persistResult } from './tool-results.js'
import { describeError } from '../../core/errors.js'
import { registerCommands } from '../_shared/register-command.js'
import { builtinOptions } from '../_shared/builtin-options.js'

const COMPACTABLE = ['Bash', 'Glob', 'Grep', 'Read', 'WebFetch', 'WebSearch', 'Edit', 'Write']

const options = builtinOptions('compaction', () => z.object({
  /** Auto compaction on or off (`DISABLE_AUTO_COMPACT=1` or `"autoCompactEnabled": false` in `~/.claude.json` turn it off too; `/compact` always works). */
  auto: z.boolean().default(true),
  /** The context size (tokens) that triggers auto compaction; default: the window minus reply room and a margin. */
  thresholdTokens: z.number().int().positive().optional(),
  /** The model that writes summaries; default: the session's. */
  summaryModel: z.string().optional(),
  summaryMaxTokens: z.number().int().min(256).default(8_192),
  /** The recent part of the conversation kept word for word, as a fraction of the threshold. */
  keepRecentFraction: z.number().min(0).max(0.5).default(0.1),
  /** Recently read files re-attached after compaction, and the characters kept of each. */
  recentFiles: z.number().int().min(0).default(5),
  recentFileChars: z.number().int().min(0).default(20_000),
  memoryChars: z.number().int().min(0).default(40_000),
  /** The conversation as the summarizer reads it: per tool result or input, per text, in all. */
  summaryInput: z.object({
    toolChars: z.number().int().min(100).default(2_000),
    textChars: z.number().int().min(100).default(10_000),
    totalChars: z.number().int().min(1_000).default(400_000),
  }).default({ toolChars: 2_000, textChars: 10_000, totalChars: 400_000 }),
  /** Tool results past their limit (characters) go to a file; the model reads a preview and the path. */
  toolResults: z.object({
    defaultLimit: z.number().int().min(100).default(50_000),
    limits: z.record(z.string(), z.number().int().min(100)).default({ Bash: 30_000, Grep: 20_000 }),
    /** Tools that page their own output (Read) are never moved to a file. */
    never: z.array(z.string()).default(['Read']),
    previewChars: z.number().int().min(0).default(2_000),
  }).default({ defaultLimit: 50_000, limits: { Bash: 30_000, Grep: 20_000 }, never: ['Read'], previewChars: 2_000 }),
  /** Old results of these tools are cleared from what is sent once the context passes `atFraction` of the threshold. */
  microcompact: z.union([z.literal(false), z.object({
    atFraction: z.number().min(0).max(1).default(0.6),
    keepRecent: z.number().int().min(0).default(5),
    tools: z.array(z.string()).default(COMPACTABLE),
    marker: z.string().min(1).default('[Old tool result content cleared]'),
  })]).default({ atFraction: 0.6, keepRecent: 5, tools: COMPACTABLE, marker: '[Old tool result content cleared]' }),
}))
type Options = z.output<typeof options>

/**
 * Compaction: decides before each request whether the conversation is compacted or old tool
 * results are cleared (`turn.request`, with its breakers, see auto.ts), compacts and retries a
 * request the API refused as too long (`turn.overflow`), writes the default summary
 * (`session.compact`, innermost, so another mod may answer first or skip), serves
 * `/compact [focus]` and moves oversized tool results to files (spec loop-and-sdk §3.9–3.11).
 */
export default defineMod({
  name: 'compaction',
  description: 'Auto and manual (/compact) compaction, tool-result budgeting and microcompaction',
  options,
  // The config's `compaction` gives the defaults; the mod's own entry wins.
  uses: { memory: 'optional', todo: 'optional', transcriptFile: 'optional', commands: 'optional' },
  configKeys: { compaction: (options, value) => ({ ...(value as Record<string, unknown>), ...options }) },
  register(on, opts) {
    const auto = new AutoCompaction()
    const setting = new AutoCompactSetting()
    const refresh = ($: ModApi) => setting.refresh(globalConfigFile((name) => $.env.get(name)), (t) => $.log.warn(t))
    let policy: Policy = {}
    let threshold = 0

    // The threshold follows the model: the window-based one is worked out again for each.
    const follow = ($: ModApi, model = $.session.model() as string) => {
      const env = (name: string) => $.env.get(name)
      const at = opts.auto && setting.enabled ? autoThreshold({ model, thresholdTokens: opts.thresholdTokens, env, warn: (t) => $.log.warn(t) }) : undefined
      const reference = at ?? autoThreshold({ model, thresholdTokens: opts.thresholdTokens, env: () => undefined, warn: () => {} })!
      policy = {
        ...(at !== undefined ? { autoAt: at } : {}),
        ...(opts.microcompact && !envTrue($.env.get('DISABLE_COMPACT')) ? {
          microcompact: { atTokens: Math.floor(reference * opts.microcompact.atFraction), keepRecent: opts.microcompact.keepRecent, tools: opts.microcompact.tools, marker: opts.microcompact.marker },
        } : {}),
      }
      threshold = at ?? reference
    }

    on('session.start', async ($, e, next) => {
      await refresh($)
      follow($)
      await registerCommands($, [{ name: 'compact', description: 'Summarize the conversation so far to free context', argumentHint: '[focus instructions]', kind: 'local' }])
      return next(e)
    })

    // The model may have changed between turns, and so may ~/.claude.json's autoCompactEnabled (/config).
    on('turn.start', async ($, e, next) => {
      await refresh($)
      follow($)
      return next(e)
    })

    // A switch during a turn takes over from its next request (a fallback for the rest of the
    // turn), and so does the threshold of the model switched to.
    on('model.switch', async ($, e, next) => {
      const r = await next(e)
      if (!('deny' in r)) follow($, r.model)
      return r
    })

    on('turn.request', ($, e, next) => auto.beforeRequest($, e, policy) ?? next(e))

    on('turn.overflow', ($, e, next) => (auto.onOverflow(e) ? { compact: {} } : next(e)))

    on('command.run', async ($, e, next) => {
      if (e.command !== 'compact') return next(e)
      const compact = $.session.compact as (args: { instructions?: string; trigger: 'manual' }) => Promise<{ skip: string } | { tokensBefore?: number; tokensAfter?: number }>
      const r = await compact({ trigger: 'manual', ...(e.args.trim() ? { instructions: e.args.trim() } : {}) })
      if ('skip' in r) return { output: `Not compacted: ${r.skip}` }
      auto.compacted()
      const figures = r.tokensBefore !== undefined && r.tokensAfter !== undefined ? ` (${r.tokensBefore.toLocaleString('en-US')} -> ${r.tokensAfter.toLocaleString('en-US')} tokens)` : ''
      return { output: `Compacted the conversation${figures}.` }
      // The summary is written inside this handler ($.session.compact waits for it): it gets the
      // time the session.compact handler gets, not the default budget a model call easily outlasts.
    }, { budgetMs: 600_000 })

    on('session.compact', ($, e, next) => {
      if (envTrue($.env.get('DISABLE_COMPACT'))) return { skip: 'compaction is disabled (DISABLE_COMPACT)' }
      if (e.trigger === 'auto' && !opts.auto) return { skip: 'automatic compaction is off' }
      if (e.trigger === 'auto' && !setting.enabled) return { skip: 'automatic compaction is off (autoCompactEnabled: false)' }
      return summarize($, e, summaryOptions(opts, threshold)).catch((err: unknown) => ({ skip: `compaction failed: ${describeError(err)}`, isFailed: true as const }))
    }, { stage: STAGE.last, budgetMs: 600_000 })

    on('tool.call', async ($, e, next) => {
      const r = await next(e)
      const rules = opts.toolResults
      if ('deny' in r || r.isError || rules.never.includes(e.tool)) return r
      const text = r.text ?? textOf(r.result)
      const limit = rules.limits[e.tool] ?? rules.defaultLimit
      if (text === undefined || text.length <= limit) return r
      const raw = (r.result as { rawOutputPath?: unknown } | null)?.rawOutputPath
      try {
        return { ...r, text: await persistResult(toolResultsDirOf($), e.tool_use_id, text, { limit, previewChars: rules.previewChars }, typeof raw === 'string' ? raw : undefined) }
      } catch (err) {
        $.log.warn(`${e.tool} result of ${text.length} characters could not be saved to a file (${describeError(err)}); it is sent whole`)
        return r
      }
    })
  },
})

function summaryOptions(opts: Options, threshold: number) {
  return {
    ...(opts.summaryModel ? { model: opts.summaryModel } : {}),
    maxTokens: opts.summaryMaxTokens,
    keepRecentTokens: Math.floor(threshold * opts.keepRecentFraction),
    render: opts.summaryInput,
    files: opts.recentFiles, fileChars: opts.recentFileChars, memoryChars: opts.memoryChars,
  }
}

/** The text a result without one is sent as; undefined when it cannot be made (the pipeline reports that). */
function textOf(result: unknown): string | undefined {
  if (typeof result === 'string') return result
  if (result === undefined) return ''
  try {
    return JSON.stringify(result)
  } catch {
    return undefined
  }
}
