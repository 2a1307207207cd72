import { homedir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import '../../core/mod/session-capabilities.js'
import { STAGE } from '../../core/bus/types.js'
import { defineMod } from '../../core/mod/define.js'
import type { ModApi } from '../../core/mod/api.js'
import { loadedPlugins } from '../_shared/loaded-plugins.js'
import { readStyleDir, readStylePath, type OutputStyle } from './read-styles.js'
import { findStyle, readChoice, type StyleChoice } from './select.js'
import { settingSources } from '../_shared/setting-sources.js'
import { readSettingsSources } from '../permissions/settings-sources.js'
import { settingsReader } from '../_shared/settings-reader.js'
import { settingsHome } from '../_shared/settings-home.js'
import { registerCommands } from '../_shared/register-command.js'
import { languageSection, readLanguage } from './language.js'
import { builtinOptions } from '../_shared/builtin-options.js'

const options = builtinOptions('output-styles', () => z.object({
  /** Where `~/.claude` (settings.json, output-styles/) is looked for (tests); else CLAUDE_CONFIG_DIR, else HOME. */
  home: z.string().optional(),
  /** The style in force unless a project, local, `--settings` or policy file names another: a distribution's default. */
  outputStyle: z.string().min(1).optional(),
  /** The managed-policy directory; `false` reads none (default: the platform's). */
  managedDir: z.union([z.string(), z.literal(false)]).optional(),
}))

interface SessionStyles {
  cwd: string
  styles: OutputStyle[]
  active?: OutputStyle
  choice?: StyleChoice
  /** The settings' `language`: the model answers in it. */
  language?: string
}

/**
 * Output styles, as Claude Code has them: markdown files in `~/.claude/output-styles`,
 * `.claude/output-styles` and each plugin's `output-styles/` (named `plugin:name`), one chosen by
 * the `outputStyle` setting. The style's text follows the other sections; the preset's concise-output
 * section goes, and its coding section too unless the style says `keep-coding-instructions: true`.
 * Each prompt carries a reminder that the style is in force; subagents keep their own prompts.
 * `/output-style` lists the styles; init names the one in force. The settings' `language` adds a
 * section asking the model to answer in that language, as Claude Code's does.
 */
export default defineMod({
  name: 'output-styles',
  description: 'Output styles from ~/.claude/output-styles, .claude/output-styles and plugins, chosen by the outputStyle setting; /output-style lists them; the language setting',
  options,
  provides: ['outputStyle', 'outputStyleList'],
  uses: { loadedPlugins: 'optional', settingsFiles: 'optional' },
  register(on, opts, $) {
    const sessions = new Map<string, SessionStyles>()
    $.capability.provide('outputStyle', (sessionId) => sessions.get(sessionId)?.active?.name ?? 'default')
    const names = (sessionId: string) => ['default', ...(sessions.get(sessionId)?.styles.map((s) => s.name) ?? [])]
    $.capability.provide('outputStyleList', {
      names,
      // A style file written since the session started is listed from now on; the style in force
      // stays, its text too, since the system prompt is composed once per session.
      reload: async (sessionId) => {
        const mine = sessions.get(sessionId)
        if (mine) mine.styles = await readStyles($, mine.cwd, opts.home)
        return names(sessionId)
      },
    })

    on('session.start', async ($, e, next) => {
      const warn = (m: string) => $.log.warn(m)
      const styles = await readStyles($, e.cwd, opts.home)
      // One read of the settings serves both keys; files that cannot be read are left to the permissions mod to report.
      const home = settingsHome($, opts.home)
      const { sources: settings } = await readSettingsSources({
        cwd: e.cwd, places: { ...(home ? { home } : {}), ...(opts.managedDir !== undefined ? { managedDir: opts.managedDir } : {}) },
        flags: $.settings.read({ source: 'flag' }), env: $.env.all(), reader: settingsReader($),
      })
      const choice = readChoice(settings, opts.outputStyle, warn)
      const language = readLanguage(settings, warn)
      const active = findStyle(styles, choice, warn)
      sessions.set(e.sessionId, { cwd: e.cwd, styles, ...(active ? { active } : {}), ...(choice ? { choice } : {}), ...(language ? { language } : {}) })
      await registerCommands($, [{ name: 'output-style', description: 'List the output styles (the outputStyle setting picks one)', kind: 'local' }], warn)
      return next(e)
    })

    on('session.end', async ($, e, next) => {
      sessions.delete(e.sessionId)
      return next(e)
    })

    on('prompt.section', async ($, e, next) => {
      const r = await next(e)
      const active = sessions.get($.session.id())?.active
      if (!active) return r
      if (e.name === 'tone') return { text: null }
      if (e.name === 'doing_tasks' && !active.keepCodingInstructions) return { text: null }
      return r
    })

    on('prompt.compose', async ($, e, next) => {
      const r = await next(e)
      const { active, language } = sessions.get($.session.id()) ?? {}
      if ((!active && !language) || e.agentId) return r
      return {
        sections: [
          ...r.sections,
          ...(language ? [{ id: 'language', text: languageSection(language), scope: 'session' as const }] : []),
          ...(active ? [{ id: 'output-style', text: `# Output style: ${active.name}\n\n${active.body}`, scope: 'session' as const }] : []),
        ],
      }
      // Outer to the other mods' section handlers, so the style follows what they add, as Claude Code appends it.
    }, { stage: STAGE.early })

    // Each prompt reminds the model of the style in force, as Claude Code does: the system prompt's
    // section alone fades from its attention as a long session grows.
    on('prompt.submit', async ($, e, next) => {
      const active = sessions.get($.session.id())?.active
      if (!active) return next(e)
      return next({ ...e, context: [...(e.context ?? []), `The ${active.name} output style is in force: keep following its instructions.`] })
    })

    on('command.run', { command: 'output-style' }, async ($, e) => {
      const mine = sessions.get($.session.id())
      if (!mine) return { output: 'No output styles were read for this session.' }
      return { output: listing(mine, e.args.trim()) }
    })
  },
})

/** The styles of the user's and the project's directories and of the plugins, as the setting sources allow. */
async function readStyles($: ModApi, cwd: string, home: string | undefined): Promise<OutputStyle[]> {
  const warn = (m: string) => $.log.warn(m)
  const claudeDir = home ? join(home, '.claude') : $.env.get('CLAUDE_CONFIG_DIR') || join($.env.get('HOME') || homedir(), '.claude')
  const plugins = loadedPlugins($)
  // A user or project style directory, like its settings file, is read only when --setting-sources names its source.
  const sources = settingSources($)
  const [user, project, ...fromPlugins] = await Promise.all([
    sources.has('user') ? readStyleDir(join(claudeDir, 'output-styles'), 'user', warn) : [],
    sources.has('project') ? readStyleDir(join(cwd, '.claude', 'output-styles'), 'project', warn) : [],
    // A plugin manifest's `outputStyles` paths, where it gives them, replace its `output-styles/`.
    ...plugins.map(async (p) => (await Promise.all((p.paths?.outputStyles ?? [join(p.root, 'output-styles')]).map((path) => readStylePath(path, warn, p.name)))).flat()),
  ])
  return [...fromPlugins.flat(), ...user!, ...project!]
}

function listing(mine: SessionStyles, asked: string): string {
  const activeName = mine.active?.name ?? 'default'
  const row = (name: string, from: string, description?: string) =>
    `${name === activeName ? '*' : ' '} ${name} (${from})${description ? ` - ${description}` : ''}`
  const lines = [
    'Output styles (* in force):',
    row('default', 'modloop'),
    ...mine.styles.map((s) => row(s.name, s.plugin ? `plugin ${s.plugin}` : s.source, s.description)),
    '',
    mine.choice ? `outputStyle "${mine.choice.value}" is set in ${mine.choice.origin}.` : 'No settings file sets outputStyle.',
    'To change it, set "outputStyle" in .claude/settings.local.json (or another settings file); it applies from the next session.',
  ]
  if (asked) lines.unshift(`/output-style does not switch styles mid-session ("${asked}" not applied): the system prompt is read once per session.`, '')
  return lines.join('\n')
}
