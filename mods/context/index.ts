import { z } from 'zod'
import { STAGE } from '../../core/bus/types.js'
import type { ModApi } from '../../core/mod/api.js'
import { defineMod } from '../../core/mod/define.js'
import { resolve } from 'node:path'
import { sessionDirectories } from '../_shared/allowed-paths.js'
import { findRepoRoot } from '../_shared/repo-root.js'
import { envFacts, renderBriefEnv, renderEnv, type EnvFacts } from './env-section.js'
import { gitSnapshot } from './git-snapshot.js'
import { attributionNote, gitInstructions, type GitInstructions } from './git-instructions.js'
import { dynamicSectionsMoved } from '../_shared/dynamic-sections.js'
import { builtinOptions } from '../_shared/builtin-options.js'
import { settingsReader } from '../_shared/settings-reader.js'

const options = builtinOptions('context', () => z.object({
  /** The environment section (`context:env`): cwd, git or not, platform, OS, shell, date, model. */
  env: z.boolean().default(true),
  /** `brief`: the environment as two lines, `CWD:` and `Date:`, as Claude Code's minimal mode (--bare) sends it. */
  envStyle: z.enum(['full', 'brief']).default('full'),
  /** The git snapshot section (`context:git`), taken once per session. */
  git: z.boolean().default(true),
  /** The short status is cut at a line boundary past this many characters. */
  maxStatusChars: z.number().int().min(100).default(2_000),
  /** Each git command gets this long; one that overruns leaves its part out. */
  gitTimeoutMs: z.number().int().min(100).default(5_000),
}))

interface SessionContext {
  cwd: string
  inRepo: Promise<boolean>
  /** Taken at the first prompt, when every mod has had its session start; the section stays byte-stable after. */
  facts?: Promise<EnvFacts>
  git: Promise<string | undefined>
  /** What the settings say about git: whether the snapshot goes out, and the attribution lines. */
  settings: Promise<GitInstructions>
  /** True until the first prompt reaches the model: it carries the attribution note (false in a resumed conversation). */
  firstPromptPending: boolean
}

/** The environment's facts, with the directories the session may use besides its cwd (--add-dir, additionalDirectories). */
async function facts($: ModApi, { cwd, inRepo }: SessionContext): Promise<EnvFacts> {
  const [found, dirs] = await Promise.all([inRepo, sessionDirectories($, [])])
  return envFacts(cwd, found, (n) => $.env.get(n), [...new Set(dirs.map((d) => resolve(cwd, d)))])
}

/** What the settings (or CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS) say about git; a host without launch flags reads the files alone. */
async function gitSettings($: ModApi, cwd: string): Promise<GitInstructions> {
  let flags: unknown = {}
  try {
    flags = await $.settings.read({ source: 'flag' })
  } catch {
    // no launch flags
  }
  return gitInstructions({ cwd, flags, env: $.env.all(), reader: settingsReader($) })
}

/** Context: the environment and git sections at the end of the system prompt; the attribution lines the settings ask for. */
export default defineMod({
  name: 'context',
  description: 'Environment and git status sections of the system prompt; the settings\' attribution lines',
  options,
  uses: { permissions: 'optional', settingsFiles: 'optional' },
  register(on, opts) {
    const sessions = new Map<string, SessionContext>()
    // The environment and git sections, as the first user message carries them when they leave the system prompt.
    const machineSections = async ($: ModApi, ctx: SessionContext, model: string): Promise<string[]> => {
      const git = await ctx.git
      return [...(opts.env ? [renderEnv(await (ctx.facts ??= facts($, ctx)), model)] : []), ...(git ? [git] : [])]
    }

    // Both are started here and awaited by the first prompt.compose, so git runs while the
    // first prompt is being prepared instead of holding up session start.
    on('session.start', ($, e, next) => {
      const inRepo = findRepoRoot(e.cwd).then((root) => root !== undefined)
      // Outside a repository git has nothing to say; spawning it to learn that costs more than the walk.
      // The settings are read beside the walk, so a snapshot they turn off is never taken.
      const settings = gitSettings($, e.cwd)
      const snapshot = async () => {
        const [found, { on }] = await Promise.all([inRepo, settings])
        return on && (found || $.env.get('GIT_DIR')) ? gitSnapshot(e.cwd, { timeoutMs: opts.gitTimeoutMs, maxStatusChars: opts.maxStatusChars }) : undefined
      }
      sessions.set(e.sessionId, {
        cwd: e.cwd, inRepo, settings,
        git: opts.git ? snapshot() : Promise.resolve(undefined),
        firstPromptPending: ($.session.messages() as unknown[]).length === 0,
      })
      return next(e)
    })

    // The settings' attribution lines ride on the first prompt that reaches the model, as Claude
    // Code sends them; one that only ran a local command (/cost) never reaches it.
    on('prompt.submit', async ($, e, next) => {
      const ctx = sessions.get($.session.id() as string)
      if (!ctx?.firstPromptPending) return next(e)
      const { attribution } = await ctx.settings
      const moved = dynamicSectionsMoved($) ? await machineSections($, ctx, $.session.model() as string) : []
      const added = [...moved, ...(attribution ? [attributionNote(attribution)] : [])]
      return next(added.length > 0 ? { ...e, context: [...(e.context ?? []), ...added] } : e)
    })
    on('turn.start', async ($, e, next) => {
      const ctx = sessions.get($.session.id() as string)
      if (ctx) ctx.firstPromptPending = false
      return next(e)
    })

    // Outermost, so the sections land after every other mod's: env, then git at the very end.
    on('prompt.compose', async ($, e, next) => {
      const r = await next(e)
      const ctx = sessions.get($.session.id() as string)
      // A custom system prompt of the main conversation is sent as given (spec loop-and-sdk §4.2);
      // a subagent's own prompt still gets the environment.
      if (!ctx || (!e.agentId && e.sections.some((s) => s.id === 'custom'))) return r
      // Moved to the first user message (prompt.submit above).
      if (!e.agentId && dynamicSectionsMoved($)) return r
      const sections = [...r.sections]
      const render = opts.envStyle === 'brief' ? renderBriefEnv : renderEnv
      if (opts.env) sections.push({ id: 'context:env', text: render(await (ctx.facts ??= facts($, ctx)), e.model), scope: 'session' })
      // A subagent's snapshot rides on its first message instead (agent.spawn below).
      const git = e.agentId ? undefined : await ctx.git
      if (git) sections.push({ id: 'context:git', text: git, scope: 'session' })
      return { sections }
    }, { stage: STAGE.early })

    // A subagent starts with the session's repository snapshot beside its prompt, as Claude Code's
    // general-purpose one does (spec loop-and-sdk §7.3); the types that start without the project's
    // memory files (Explore, Plan: `omitClaudeMd`) go without it too. Every type gets the settings'
    // attribution lines, as Claude Code's do: a subagent may commit too.
    on('agent.spawn', async ($, e, next) => {
      const ctx = sessions.get($.session.id() as string)
      if (!ctx) return next(e)
      const [git, { attribution }] = await Promise.all([e.omitClaudeMd ? undefined : ctx.git, ctx.settings])
      const added = [...(git ? [git] : []), ...(attribution ? [attributionNote(attribution)] : [])]
      return next(added.length > 0 ? { ...e, context: [...(e.context ?? []), ...added] } : e)
    })

    on('session.end', (_$, e, next) => {
      sessions.delete(e.sessionId)
      return next(e)
    })
  },
})
