import { homedir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import type { ModApi } from '../../core/mod/api.js'
import { defineMod } from '../../core/mod/define.js'
import { registerTool } from '../_shared/register-tool.js'
import { BUILTINS, helpText, modsText } from './builtins.js'
import { costText } from './cost.js'
import { contextText } from './context.js'
import { statusText } from './status.js'
import { exportCommand } from './export.js'
import { btwCommand } from './btw.js'
import { reloadText } from './reload-text.js'
import { readCommands, readSkills, type PromptCommand } from './definitions.js'
import { expandPrompt } from './expand.js'
import { registerInvocation, RunningInvocation } from './invocation.js'
import { mentionOrigins } from './mention-origins.js'
import { listingChars, skillListing } from './skill-listing.js'
import { readPluginPrompts, unprefixed } from './plugin-prompts.js'
import { loadedPlugins } from '../_shared/loaded-plugins.js'
import { skillTool } from './skill-tool.js'
import { settingSources } from '../_shared/setting-sources.js'
import { projectDirs } from '../_shared/repo-root.js'
import { ShellLineRefused } from './shell-expansion.js'
import { shellLinesDisabled } from './shell-policy.js'
import { readSkillOverrides, withOverride } from './skill-overrides.js'
import { readSkillsOption, skillsFilter } from './skills-option.js'
import { settingsHome } from '../_shared/settings-home.js'
import { settingsReader } from '../_shared/settings-reader.js'
import { registerCommands } from '../_shared/register-command.js'
import { builtinOptions } from '../_shared/builtin-options.js'

const options = builtinOptions('commands', () => z.object({
  /** Where `~/.claude/commands` and `~/.claude/skills` are looked for (tests). */
  home: z.string().optional(),
  /** Custom slash commands from `.claude/commands`. */
  commands: z.boolean().default(true),
  /** Skills from `.claude/skills`: `/name`, the Skill tool and the listing in the system prompt. */
  skills: z.boolean().default(true),
  /** `/help`, `/mods`, `/clear`, `/cost` (`/usage`), `/context`, `/status`, `/export`, `/reload-skills` and `/btw`. */
  builtins: z.boolean().default(true),
  /** How long each `!` shell command of a command body may run. */
  shellTimeoutMs: z.number().int().min(100).default(30_000),
  maxShellOutputChars: z.number().int().min(100).default(30_000),
  /** The skill listing: per-description and total character budgets (the total: see `listingChars`). */
  maxDescriptionChars: z.number().int().min(50).default(1_536),
  skillListingChars: z.number().int().min(200).optional(),
}))

export type { CommandsApi, Invocation } from './api.js'

interface SessionCommands {
  /** What `/name` runs, by name: commands, then skills (a skill wins a shared name). */
  prompts: Map<string, PromptCommand>
  skills: Map<string, PromptCommand>
  /** What the Skill tool runs, by the names it takes. */
  callable: Map<string, PromptCommand>
  listing: string | undefined
  /** The commands and skills a person can run by name, as last read: what /reload-skills compares with. */
  named: string[]
  /** Every command this mod registered for the session, so a reload can take back the ones gone from disk. */
  registered: string[]
}

/** Commands & skills: `.claude/commands` and `.claude/skills` as slash commands, the Skill tool, `/help`, `/mods`. */
const CLEAR_ALIASES = new Set(['reset', 'new'])

export default defineMod({
  name: 'commands',
  description: 'Custom slash commands, skills and the Skill tool, /help, /mods, /clear, /cost, /export, /reload-skills and /btw',
  options,
  provides: ['commands', 'skillReload'],
  uses: { loadedPlugins: 'optional', agents: 'optional', serverStatus: 'optional', permissionMode: 'optional', settingsFiles: 'optional', outputStyleList: 'optional' },
  register(on, opts, $) {
    const sessions = new Map<string, SessionCommands>()
    const running = new RunningInvocation()
    // The skills each session's main conversation ran, by name, the latest last, with the text each was given.
    const invoked = new Map<string, Map<string, string>>()
    const noteSkill = ($: ModApi, def: PromptCommand, text: string, agentId?: string) => {
      if (def.kind !== 'skill' || agentId !== undefined) return
      const id = $.session.id() as string
      const ran = invoked.get(id) ?? new Map<string, string>()
      ran.delete(def.name)
      invoked.set(id, ran.set(def.name, text))
    }
    // Runs a command or skill for the main conversation, or a subagent (`agentId`): its grants and
    // model hold from now; one refused as it expands (a shell line not allowed) grants nothing.
    const invoke = async ($: ModApi, def: PromptCommand, args: string, agentId?: string): Promise<string> => {
      const before = running.get(agentId)
      running.set(def, agentId)
      try {
        const text = await expand($, def, args)
        noteSkill($, def, text, agentId)
        return text
      } catch (err) {
        running.restore(before, agentId)
        throw err
      }
    }
    // The session a SessionStart hook's `reloadSkills` reloads: the one that started last.
    let started: { cwd: string; sessionId: string } | undefined
    const reload = () => (started ? load($, started.cwd, started.sessionId) : Promise.resolve())
    $.capability.provide('commands', {
      reload,
      invocation: (agentId) => running.get(agentId),
      skillText: async (name) => {
        const def = started && sessions.get(started.sessionId)?.callable.get(name.trim().replace(/^\//, ''))
        return def ? expand($, def, '') : undefined
      },
      invokedSkills: (sessionId) => [...(invoked.get(sessionId) ?? [])].reverse().map(([name, text]) => ({ name, text })),
      skillAsks: (name) => {
        const def = started && sessions.get(started.sessionId)?.callable.get(name.trim().replace(/^\//, ''))
        return def ? (def.allowedTools?.length ?? 0) > 0 || Object.keys(def.hooks ?? {}).length > 0 : false
      },
    })
    // The same reload for the runtime (Query.reloadSkills), which cannot name this mod's capability's type.
    $.capability.provide('skillReload', reload)
    registerInvocation(on, running)
    const origins = mentionOrigins(on)

    // The settings' disableSkillShellExecution, read once per session, when a shell line is first met.
    const shellOff = new Map<string, Promise<boolean>>()
    const disabled = ($: ModApi) => () => {
      const id = $.session.id() as string
      let answer = shellOff.get(id)
      if (!answer) shellOff.set(id, answer = shellLinesDisabled({ cwd: $.session.cwd() as string, home: settingsHome($, opts.home), flags: $.settings.read({ source: 'flag' }), env: $.env.all(), reader: settingsReader($) }))
      return answer
    }

    const expand = ($: ModApi, def: PromptCommand, args: string) => expandPrompt(def, args, {
      cwd: $.session.cwd() as string, projectDir: $.session.cwd() as string, sessionId: $.session.id() as string,
      configDir: $.env.get('CLAUDE_CONFIG_DIR') || join(opts.home ?? ($.env.get('HOME') || homedir()), '.claude'),
      timeoutMs: opts.shellTimeoutMs, maxOutputChars: opts.maxShellOutputChars,
      // Each shell line is checked as a Bash call would be (spec loop-and-sdk §6.2), with the grants
      // of the command's own allowed-tools: a skill the model runs, or a command from a cloned
      // repository, runs no program the session's rules would not. What would be asked about is refused.
      refuse: async (command) => {
        const verdict = (await $.tool.check({ tool: 'Bash', input: { command } })) as { decision: string; reason?: string }
        if (verdict.decision === 'allow') return undefined
        return verdict.decision === 'deny'
          ? verdict.reason ?? 'a permission rule denies it'
          : `${verdict.reason ?? 'it needs approval'}. Allow it with a rule, such as allowed-tools: Bash(${ruleOf(command)}) in the command's frontmatter`
      },
      disabled: disabled($),
    })

    // Reads the command and skill directories and registers what they hold; again on reload.
    const load = async ($: ModApi, cwd: string, sessionId: string) => {
      const home = opts.home ?? ($.env.get('HOME') || homedir())
      const warn = (m: string) => $.log.warn(m)
      const none = Promise.resolve([] as PromptCommand[])
      // A user or project directory is read only when --setting-sources names its source.
      const sources = settingSources($)
      const [user, project] = [sources.has('user'), sources.has('project')]
      const dirs = await projectDirs(cwd, home)
      // --disable-slash-commands: no commands and no skills, so no Skill tool nor listing either.
      const flags = await $.settings.read({ source: 'flag' })
      const wanted = (flags as { disableSlashCommands?: unknown } | undefined)?.disableSlashCommands !== true
      const [userCommands, projectCommands, userSkills, projectSkills, plugin] = await Promise.all([
        wanted && opts.commands && user ? readCommands(join(home, '.claude', 'commands'), 'user', warn) : none,
        wanted && opts.commands && project ? readEach(dirs, (d) => readCommands(join(d, '.claude', 'commands'), 'project', warn)) : none,
        wanted && opts.skills && user ? readSkills(join(home, '.claude', 'skills'), 'user', warn) : none,
        wanted && opts.skills && project ? readEach(dirs, (d) => readSkills(join(d, '.claude', 'skills'), 'project', warn)) : none,
        wanted ? readPluginPrompts(loadedPlugins($), opts, warn) : Promise.resolve({ commands: [], skills: [] }),
      ])
      // The settings are read for skillOverrides only when there is something for it to name.
      const found = [userCommands, projectCommands, userSkills, projectSkills, plugin.commands, plugin.skills].some((list) => list.length > 0)
      const overrides = found
        ? await readSkillOverrides({ cwd, home: settingsHome($, opts.home), flags: $.settings.read({ source: 'flag' }), env: $.env.all(), reader: settingsReader($) }, warn)
        : new Map()
      // The query's `skills` list: what it leaves out is kept from the model.
      const list = readSkillsOption(flags, warn)
      const limit = list ? skillsFilter(list, [userCommands, projectCommands, userSkills, projectSkills, plugin.commands, plugin.skills].flat(), warn) : undefined
      const own = (found: PromptCommand[]) => {
        const overridden = overrides.size > 0 ? found.map((d) => withOverride(d, overrides)) : found
        return limit ? overridden.map(limit) : overridden
      }
      // Later sources win a shared name: skills over commands, and the user's own over the project's
      // (a cloned repository does not replace a person's command, as in Claude Code); plugins' are `plugin:name`.
      const skills = new Map([...own(plugin.skills), ...own(projectSkills), ...own(userSkills)].map((s) => [s.name, s]))
      const named = new Map([...own(plugin.commands), ...own(projectCommands), ...own(userCommands), ...skills.values()].map((c) => [c.name, c]))
      // What `/name` runs: the named ones, plugins' under their short name where that is unambiguous, and skills under their directory's.
      const prompts = new Map([...unprefixed(named), ...aliases(named), ...named])
      // Commands are merged into skills (spec loop-and-sdk §6.2): listed after them and callable the same way.
      const callable = opts.skills ? [...skills.values(), ...[...named.values()].filter((c) => c.kind === 'command')] : []
      const totalChars = listingChars($.env.get('SLASH_COMMAND_TOOL_CHAR_BUDGET'), opts.skillListingChars, $.session.model() as string)
      const listing = skillListing(callable, { maxDescriptionChars: opts.maxDescriptionChars, totalChars })
      const before = sessions.get(sessionId)
      const had = before?.listing !== undefined
      // The Skill tool takes a plugin skill's short name where `/name` does.
      const byToolName = new Map([...prompts].filter(([, c]) => callable.includes(c)))

      const specs = [
        ...(opts.builtins ? BUILTINS.map((b) => ({ name: b.name, description: b.description, ...('argumentHint' in b ? { argumentHint: b.argumentHint } : {}), kind: 'local' as const })) : []),
        ...[...named.values()].filter((c) => c.userInvocable).map((c) => ({
          name: c.name, description: `${c.description} (${c.plugin ? `plugin ${c.plugin.name}` : c.source}${c.kind === 'skill' ? ' skill' : ''})`, ...(c.argumentHint ? { argumentHint: c.argumentHint } : {}),
          kind: c.kind === 'skill' ? 'skill' as const : 'prompt' as const,
        })),
      ]
      await registerCommands($, specs, warn)
      // A command or skill deleted since the last read is no longer listed.
      for (const gone of before?.registered.filter((name) => !specs.some((spec) => spec.name === name)) ?? []) $.command.unregister({ command: gone })
      sessions.set(sessionId, { prompts, skills, callable: byToolName, listing, named: [...named.values()].filter((c) => c.userInvocable).map((c) => c.name), registered: specs.map((spec) => spec.name) })
      if (listing) {
        await registerTool($, skillTool(byToolName, (def, args, agentId) => invoke($, def, args, agentId), () => $.capability.use('agents')))
      }
      else if (had) await $.tool.unregister({ tool: 'Skill' })
    }

    on('session.start', async ($, e, next) => {
      await load($, e.cwd, e.sessionId)
      running.clear()
      started = { cwd: e.cwd, sessionId: e.sessionId }
      return next(e)
    })

    on('command.run', async ($, e, next) => {
      const mine = sessions.get($.session.id() as string)
      if (!mine) return next(e)
      if (opts.builtins && e.command === 'help') {
        const hints = new Map([...BUILTINS, ...mine.prompts.values()].flatMap((c) => ('argumentHint' in c && c.argumentHint ? [[c.name, c.argumentHint] as const] : [])))
        return { output: await helpText($, hints) }
      }
      if (opts.builtins && e.command === 'mods') return { output: await modsText($) }
      if (opts.builtins && (e.command === 'cost' || e.command === 'usage')) return { output: await costText($) }
      if (opts.builtins && e.command === 'context') return { output: await contextText($) }
      if (opts.builtins && e.command === 'status') return { output: statusText($) }
      if (opts.builtins && e.command === 'reload-skills') {
        const before = mine.named
        await load($, $.session.cwd() as string, $.session.id() as string)
        return { output: reloadText(before, sessions.get($.session.id() as string)?.named ?? []) }
      }
      if (opts.builtins && e.command === 'export') return { output: await exportCommand($, e.args, new Date($.clock.now())) }
      if (opts.builtins && e.command === 'btw') return btwCommand($, e.args)
      // Its code loads when it first runs: most sessions never change a setting.
      if (opts.builtins && (e.command === 'config' || e.command === 'settings')) return (await import('./config-command.js')).configCommand($, e.args)
      // `/reset` and `/new` are /clear's other names (spec §6.1), unless the project has commands of its own by them.
      if (opts.builtins && (e.command === 'clear' || (CLEAR_ALIASES.has(e.command) && !mine.prompts.has(e.command)))) {
        const { sessionId } = (await $.session.clear()) as { sessionId: string }
        return { output: `Started a new conversation (session ${sessionId}).` }
      }
      const def = mine.prompts.get(e.command)
      if (!def) return next(e)
      // Typed, it is answered without a model call, as Claude Code answers it: the model is the one to run it.
      if (def.override === 'off') return { output: `/${e.command} is turned off by the settings' skillOverrides ("${def.name}": "off"); remove that entry to run it.` }
      if (!def.userInvocable) return { output: `/${e.command} is run by the model only (its frontmatter says user-invocable: false): ask for the task in words and the model can run the "${def.name}" skill.` }
      origins.note($, def)
      try {
        return { prompt: await invoke($, def, e.args) }
      } catch (err) {
        if (!(err instanceof ShellLineRefused)) throw err
        return { deny: `/${e.command}: ${err.message}.`, isError: true }
      }
    })

    on('prompt.compose', async ($, e, next) => {
      const r = await next(e)
      const listing = sessions.get($.session.id() as string)?.listing
      if (!listing || !e.tools.includes('Skill')) return r
      return { sections: [...r.sections, { id: 'commands:skills', text: listing, scope: 'session' }] }
    })

    on('session.end', (_$, e, next) => {
      sessions.delete(e.sessionId)
      shellOff.delete(e.sessionId)
      invoked.delete(e.sessionId)
      return next(e)
    })
  },
})

/** Skills by their directory name where the frontmatter names them otherwise; a command or skill holding that name keeps it. */
function aliases(named: ReadonlyMap<string, PromptCommand>): [string, PromptCommand][] {
  return [...named.values()].flatMap((c) => (c.alias && !named.has(c.alias) ? [[c.alias, c] as [string, PromptCommand]] : []))
}

/** What `read` finds in each directory, in order: nearer cwd comes later, so it wins a shared name. */
async function readEach(dirs: readonly string[], read: (dir: string) => Promise<PromptCommand[]>): Promise<PromptCommand[]> {
  return (await Promise.all(dirs.map(read))).flat()
}

/** A prefix rule for a shell line, for the refusal to name: its first word (`git status` → `git status:*` for git). */
function ruleOf(command: string): string {
  const words = command.trim().split(/\s+/)
  return `${words.slice(0, words[0] === 'git' || words[0] === 'npm' ? 2 : 1).join(' ')}:*`
}
