import { mkdir, realpath } from 'node:fs/promises'
import { envTrue } from '../../core/env.js'
import { homedir } from 'node:os'
import { resolve } from 'node:path'
import { z } from 'zod'
import { workspaceTrusted } from '../permissions/trust-store.js'
import type { ModApi } from '../../core/mod/api.js'
import type { LoadedInstruction } from './types.js'
import { defineMod } from '../../core/mod/define.js'
import { registerMemoryCommands } from './commands.js'
import { sessionDirectories } from '../_shared/allowed-paths.js'
import { findRepoRoot } from '../_shared/repo-root.js'
import { settingSources } from '../_shared/setting-sources.js'
import { bashReads } from './bash-reads.js'
import { excludesOf } from './excludes.js'
import { readSettingsSources } from '../permissions/settings-sources.js'
import { settingsReader } from '../_shared/settings-reader.js'
import { autoMemoryOn, memoryDir, readIndex, type MemoryIndex } from './auto-memory.js'
import { settingsHome } from '../_shared/settings-home.js'
import { MemoryReader } from './reader.js'
import { renderLazy, renderStartup, today } from './render.js'
import { SessionMemory } from './session-memory.js'
import { dynamicSectionsMoved } from '../_shared/dynamic-sections.js'
import { builtinOptions } from '../_shared/builtin-options.js'

const SOURCES = ['managed', 'user', 'project', 'local'] as const

const MANAGED_PATH: Partial<Record<NodeJS.Platform, string>> = {
  linux: '/etc/claude-code/CLAUDE.md',
  darwin: '/Library/Application Support/ClaudeCode/CLAUDE.md',
  win32: 'C:\\Program Files\\ClaudeCode\\CLAUDE.md',
}

const options = builtinOptions('memory', () => z.object({
  /** The user's home: `~/.claude/CLAUDE.md`, `~/.claude/rules` and `~/` imports are found there (tests). */
  home: z.string().optional(),
  /** The machine-wide policy file; `false` reads none. Default: the platform's usual place. */
  managedPath: z.union([z.string(), z.literal(false)]).optional(),
  /** Which kinds of memory file to read (`local` is CLAUDE.local.md). */
  sources: z.array(z.enum(SOURCES)).default([...SOURCES]),
  /** How many `@path` hops a chain of imports may take (4, as spec loop-and-sdk §4.3 and Claude Code: CLAUDE.md → a → b → c → d). */
  maxImportDepth: z.number().int().min(0).max(20).default(4),
  /** Larger files are skipped with a warning. */
  maxFileBytes: z.number().int().min(1).default(4 * 1024 * 1024),
  /** Add `# currentDate` to the first user message. */
  currentDate: z.boolean().default(true),
  /** Load nested CLAUDE.md files and `paths:`-scoped rules when a tool touches a file they cover. */
  lazy: z.boolean().default(true),
  /**
   * Let project and local memory files import files outside the project. Claude Code asks once per
   * project; here a trusted workspace (`modloop trust`, --trust-workspace, the terminal's trust
   * question) is that approval, and `true` gives it everywhere.
   */
  externalImports: z.boolean().default(false),
  /** The trust file (default: $MODLOOP_HOME/trusted.json, MODLOOP_HOME defaulting to ~/.modloop). */
  trustStore: z.string().optional(),
  /**
   * Auto memory: a folder the model keeps notes in across sessions, its MEMORY.md index read at start
   * (the settings' `autoMemoryEnabled` and CLAUDE_CODE_DISABLE_AUTO_MEMORY still decide). `false` leaves
   * it to another mod or to none.
   */
  autoMemory: z.boolean().default(true),
}))

/** What the memory mod offers other mods, as the `memory` capability. */
export interface MemoryApi {
  /**
   * Every memory file the session that loaded last loaded, in order, as `{file_path, memory_type,
   * load_reason, globs?, trigger_file_path?, parent_file_path?}` (the settings `InstructionsLoaded`
   * input). It only grows during a session, so a bridge that remembers the last length raises
   * `InstructionsLoaded` for exactly the new entries.
   */
  loaded(): readonly LoadedInstruction[]
  /**
   * The auto memory of the session that loaded last, when it is on: its folder, and its MEMORY.md
   * read from disk now, cut as at start (undefined when there is none). Compaction reattaches it.
   */
  autoMemory(): { dir: string; index(): Promise<MemoryIndex | undefined> } | undefined
}

declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    memory: MemoryApi
  }
}

/** The path a tool call touched; `file` when its field names a file (`file_path`, `notebook_path`), where `path` may be a directory. */
function pathArg(e: Record<string, unknown>): { path: string; kind?: 'file' } | undefined {
  for (const [field, kind] of [['file_path', 'file'], ['path', undefined], ['notebook_path', 'file']] as const) {
    const v = e[field]
    if (typeof v === 'string' && v !== '') return { path: v, ...(kind ? { kind } : {}) }
  }
  return undefined
}

/** Memory: CLAUDE.md / AGENTS.md files and rules, in the first user message and as tools reach further. */
export default defineMod({
  name: 'memory',
  description: 'CLAUDE.md and AGENTS.md memory files, rules and @imports; /init and /memory',
  options,
  provides: ['memory'],
  uses: { permissions: 'optional', shellCwd: 'optional', settingsFiles: 'optional' },
  register(on, opts, $) {
    const sessions = new Map<string, SessionMemory>()
    let loads: readonly LoadedInstruction[] = []
    let autoDir: string | undefined
    $.capability.provide('memory', {
      loaded: () => loads,
      autoMemory: () => (autoDir === undefined ? undefined : { dir: autoDir, index: () => readIndex(autoDir!) }),
    })
    const publish = (_$: ModApi, memory: SessionMemory) => {
      loads = [...memory.loads]
      autoDir = memory.auto?.dir
    }
    registerMemoryCommands(on, (id) => sessions.get(id), () => opts.home ?? ($.env.get('HOME') || homedir()))

    // The permissions grant of the auto memory folder, given back when its session ends or another starts.
    let releaseGrant: (() => void) | undefined

    on('session.start', async ($, e, next) => {
      releaseGrant?.()
      releaseGrant = undefined
      const home = opts.home ?? ($.env.get('HOME') || homedir())
      const disabled = /^(1|true)$/i.test($.env.get('CLAUDE_CODE_DISABLE_CLAUDE_MDS') ?? '')
      const picked = settingSources($)
      const warn = (m: string) => $.log.warn(m)
      const settingsAt = settingsHome($, opts.home)
      // Off by the environment, auto memory needs no settings read: a start pays nothing for it.
      const autoWanted = opts.autoMemory && !envTrue($.env.get('CLAUDE_CODE_DISABLE_AUTO_MEMORY'))
      const [repoRoot, settings] = await Promise.all([
        findRepoRoot(e.cwd),
        disabled && !autoWanted ? undefined : readSettingsSources({ cwd: e.cwd, places: settingsAt ? { home: settingsAt } : {}, flags: $.settings.read({ source: 'flag' }), env: $.env.all(), reader: settingsReader($) }),
      ])
      const excluded = disabled || !settings ? undefined : excludesOf(settings.sources, warn)
      // Claude Code reads an added directory's memory only when this variable asks for it.
      const extraDirs = /^(1|true)$/i.test($.env.get('CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD') ?? '')
        ? [...new Set((await sessionDirectories($, [])).map((d) => resolve(e.cwd, d)))]
        : []
      const project = await realpath(repoRoot ?? e.cwd).catch(() => resolve(repoRoot ?? e.cwd))
      const memory = new SessionMemory({
        cwd: e.cwd, extraDirs, home,
        managedPath: opts.managedPath === undefined ? MANAGED_PATH[process.platform] ?? false : opts.managedPath && resolve(opts.managedPath),
        sources: new Set(disabled ? [] : opts.sources.filter((s) => s === 'managed' || picked.has(s))), lazy: opts.lazy && !disabled, warn,
      }, new MemoryReader({ home, maxDepth: opts.maxImportDepth, maxFileBytes: opts.maxFileBytes, warn, project, externalImports: externalApproval($, e.cwd, opts), ...(excluded ? { excluded } : {}) }))
      memory.firstPromptPending = ($.session.messages() as unknown[]).length === 0
      sessions.set(e.sessionId, memory)
      const auto = autoWanted && settings && autoMemoryOn((name) => $.env.get(name), settings.sources)
        ? startAutoMemory($, { sources: settings.sources, project: repoRoot ?? e.cwd, home, env: $.env.all(), trusted: () => trustedWorkspace($, e.cwd, opts), warn }, !disabled)
        : undefined
      const [, started] = await Promise.all([memory.start(), auto])
      if (started) {
        memory.auto = started.auto
        releaseGrant = started.release
      }
      publish($, memory)
      return next(e)
    })

    // The main agent's system prompt says where its memory is and how to keep it; a custom prompt
    // (its own words replace the default's) and a subagent's go without, as in Claude Code.
    on('prompt.compose', async ($, e, next) => {
      const r = await next(e)
      const dir = sessions.get($.session.id() as string)?.auto?.dir
      // Moved, it rides on the first user message instead (prompt.submit below).
      if (dir === undefined || e.agentId || e.sections.some((s) => s.id === 'custom') || dynamicSectionsMoved($)) return r
      const { autoMemorySection } = await import('./auto-memory-prompt.js')
      return { sections: [...r.sections, { id: 'memory:auto', text: autoMemorySection(dir), scope: 'session' as const }] }
    })

    // The first prompt that reaches the model carries the memory: each prompt is offered it until
    // a turn starts. One that only ran a local command (/cost) never reaches the model, though its
    // record joins the history; a resumed conversation holds the memory already.
    on('prompt.submit', async ($, e, next) => {
      const memory = sessions.get($.session.id() as string)
      if (!memory?.firstPromptPending) return next(e)
      const text = renderStartup(memory.startup, opts.currentDate ? today() : undefined, memory.auto?.index)
      const dir = memory.auto?.dir
      const moved = dir !== undefined && dynamicSectionsMoved($) ? [(await import('./auto-memory-prompt.js')).autoMemorySection(dir)] : []
      const added = [...moved, ...(text ? [text] : [])]
      return next(added.length > 0 ? { ...e, context: [...added, ...(e.context ?? [])] } : e)
    })
    on('turn.start', async ($, e, next) => {
      const memory = sessions.get($.session.id() as string)
      if (memory) memory.firstPromptPending = false
      return next(e)
    })

    // A subagent's context is its own (spec loop-and-sdk §7.3): its first message gets the memory
    // files too, or it would work without the project's instructions; unless its type goes without (Explore, Plan).
    on('agent.spawn', async ($, e, next) => {
      const memory = sessions.get($.session.id() as string)
      const text = memory && renderStartup(memory.startup, opts.currentDate ? today() : undefined)
      if (!memory || !text || e.omitClaudeMd) return next(e)
      const r = await next({ ...e, context: [...(e.context ?? []), text] })
      if (!('deny' in r) && r.agentId) memory.startAgent(r.agentId)
      return r
    })

    on('tool.call', async ($, e, next) => {
      const r = await next(e)
      const memory = sessions.get($.session.id() as string)
      if ('deny' in r || r.isError || !memory) return r
      const arg = pathArg(e)
      // A command that printed a file read it as Read would. Its relative paths are the shell's: where
      // it stands after the command (a `cd dir && cat f` moved it there), the main conversation's shell
      // as the bash mod keeps it; a subagent's, or no such mod, the session's directory.
      const shellDir = () => (e.agentId === undefined ? $.capability.use('shellCwd')?.($.session.id() as string) : undefined) ?? ($.session.cwd() as string)
      const touched = arg ? [arg] : e.tool === 'Bash' && typeof e.command === 'string'
        ? bashReads(e.command).map((path) => ({ path: resolve(shellDir(), path), kind: 'file' as const }))
        : []
      const context: string[] = []
      for (const { path, kind } of touched) {
        const entries = await memory.touch(path, e.agentId ?? '', kind)
        if (entries.length > 0) context.push(renderLazy(entries, resolve($.session.cwd() as string, path)))
      }
      if (context.length === 0) return r
      publish($, memory)
      return { ...r, context: [...(r.context ?? []), ...context] }
    })

    // The compacted conversation holds the startup memory again (reattached) but nothing tools
    // brought in later: nested CLAUDE.md files and scoped rules load anew when touched again, as
    // Claude Code does (spec loop-and-sdk, compaction step 4).
    on('session.compact', async ($, e, next) => {
      const r = await next(e)
      if ('messages' in r) sessions.get($.session.id() as string)?.startAgent(e.agentId ?? '')
      return r
    })

    // A mentioned file pulls in the memory of its directories, as a tool touching it would.
    on('prompt.mention', async ($, e, next) => {
      const r = await next(e)
      const memory = sessions.get($.session.id() as string)
      if ('deny' in r || r.type === null || !memory) return r
      const entries = await memory.touch(e.path, e.agentId ?? '')
      if (entries.length === 0) return r
      publish($, memory)
      return { ...r, context: [...(r.context ?? []), renderLazy(entries, e.path)] }
    })

    on('session.end', (_$, e, next) => {
      sessions.delete(e.sessionId)
      releaseGrant?.()
      releaseGrant = undefined
      return next(e)
    })
  },
})

/**
 * Auto memory's start: the folder (made when missing, as the model is told it is there), the
 * permissions mod's grant of it to the file tools, and MEMORY.md when the memory files are read
 * at all (`readIndex`; CLAUDE_CODE_DISABLE_CLAUDE_MDS leaves it out but keeps the folder).
 */
async function startAutoMemory($: ModApi, where: Parameters<typeof memoryDir>[0], readIt: boolean): Promise<{ auto: NonNullable<SessionMemory['auto']>; release?: () => void }> {
  const dir = await memoryDir(where)
  const index = readIt ? await readIndex(dir) : undefined
  // A MEMORY.md read says the folder is there: the common case costs no second trip to the disk.
  if (!index) await mkdir(dir, { recursive: true }).catch((err) => where.warn(`the auto memory folder ${dir} cannot be made: ${(err as Error).message}`))
  const release = await $.capability.use('permissions')?.grantDirectory(dir)
  return { auto: { dir, ...(index ? { index } : {}) }, ...(release ? { release } : {}) }
}

/**
 * Whether project memory may import from outside the project: the option, else a trusted workspace,
 * read once, when the first such import is met.
 */
function externalApproval($: ModApi, cwd: string, opts: z.output<typeof options>): () => Promise<boolean> {
  let answer: Promise<boolean> | undefined
  return () => answer ??= (async () => {
    if (opts.externalImports) return true
    return trustedWorkspace($, cwd, opts)
  })()
}

/** Whether the workspace is trusted (`modloop trust`, --trust-workspace, the terminal's trust question). */
async function trustedWorkspace($: ModApi, cwd: string, opts: z.output<typeof options>): Promise<boolean> {
  const flags = await Promise.resolve($.settings.read({ source: 'flag' })).catch(() => ({}))
  const warnings: string[] = []
  const trusted = await workspaceTrusted(cwd, (flags as { trustWorkspace?: unknown }).trustWorkspace === true, { trustStore: opts.trustStore, home: opts.home }, $.env.all(), warnings)
  for (const w of warnings) $.log.warn(w)
  return trusted
}
