import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import type { ModApi } from '../../core/mod/api.js'
import { describeError } from '../../core/errors.js'
import { readSettingsEnv } from './read-env.js'
import { settingsReader } from '../_shared/settings-reader.js'
import { flagLayers, launchFlags } from '../_shared/launch-flags.js'
import { effortFor, type EffortSetting } from './effort-level.js'
import type { StatusLineSetting } from '../_shared/status-line-setting.js'
import { builtinOptions } from '../_shared/builtin-options.js'

const options = builtinOptions('settings-env', () => z.object({
  /** The user's home: `~/.claude/settings.json` is read there (default: CLAUDE_CONFIG_DIR, else the OS home). */
  home: z.string().optional(),
  /** The managed-policy directory; `false` reads none (default: the platform's). */
  managedDir: z.union([z.string(), z.literal(false)]).optional(),
  /** The trust file (default: $MODLOOP_HOME/trusted.json, MODLOOP_HOME defaulting to ~/.modloop). */
  trustStore: z.string().optional(),
}))

/** Sets or clears what a session's settings named. */
function keep<T>(map: Map<string, T>, sessionId: string, value: T | undefined): void {
  if (value === undefined) map.delete(sessionId)
  else map.set(sessionId, value)
}

/** A variable this mod set, and what it replaced, so the session's end can put it back. */
interface Applied { name: string; value: string; before: string | undefined }

/**
 * Settings env: the `env` blocks of `~/.claude/settings.json`, `.claude/settings.json`,
 * `.claude/settings.local.json`, `--settings` and managed policy set variables in the session's
 * environment, the later source winning per name (user < project < local < --settings < policy) and
 * over the launch environment, as in Claude Code. Bash commands, settings hooks, MCP servers and
 * whatever reads `$.env` see them. Project and local settings apply only in a trusted workspace
 * (`modloop trust`, --trust-workspace), as their allow rules do: a cloned repository's env could
 * set PATH or NODE_OPTIONS for the commands the user allowed. It also reads the settings' `model`
 * (the `settingsModel` capability), which a session starts on when nothing else names one, their
 * `effortLevel` (the `settingsEffort` capability), asked of the model when nothing else sets one, and
 * their `apiKeyHelper` (the `apiKeyHelper` capability), which the model client runs for its key, and
 * their `statusLine` (the `statusLineSetting` capability), which the terminal runs. Settings
 * merged by Query.applyFlagSettings are read at the session's next turn or tool call.
 */
export default defineMod({
  name: 'settings-env',
  description: 'Applies the env blocks of the settings files to the session environment',
  options,
  provides: ['settingsModel', 'settingsEffort', 'apiKeyHelper', 'statusLineSetting'],
  uses: { settingsFiles: 'optional' },
  register(on, opts, $) {
    const applied = new Map<string, Applied[]>()
    // The settings' `model` of each session, for the runtime to start a session nothing else names a model for on it.
    const models = new Map<string, string>()
    $.capability.provide('settingsModel', (sessionId) => models.get(sessionId))
    // The settings' `effortLevel` of each session, for the loop to ask it of each request's model.
    const efforts = new Map<string, EffortSetting>()
    $.capability.provide('settingsEffort', (sessionId, model) => effortFor(efforts.get(sessionId), model))
    // The settings' apiKeyHelper of each session, for the model client's first request.
    const keyHelpers = new Map<string, { command: string; file: string }>()
    $.capability.provide('apiKeyHelper', (sessionId) => keyHelpers.get(sessionId))
    // The settings' statusLine of each session, for the terminal to run.
    const statusLines = new Map<string, StatusLineSetting>()
    $.capability.provide('statusLineSetting', (sessionId) => statusLines.get(sessionId))

    // The flag layer's settings each session's values were read with: Query.applyFlagSettings adds
    // to it (runtime/flag-settings.ts), and the session's next turn or tool call reads them again.
    const layers = new Map<string, string>()
    // A host without launch flags: the settings files alone apply.
    const flagsOf = async ($: ModApi): Promise<unknown> => (await launchFlags($)) ?? {}

    /** Reads the settings of a session in `cwd` and applies them; a variable an earlier read set and this one does not goes back. */
    const load = async ($: ModApi, sessionId: string, cwd: string, flags: unknown) => {
      layers.set(sessionId, flagLayers(flags))
      try {
        const { values, model, effort, keyHelper, statusLine, warnings } = await readSettingsEnv({ cwd, places: opts, flags, env: $.env.all(), reader: settingsReader($) })
        for (const w of warnings) $.log.warn(w)
        keep(models, sessionId, model)
        keep(efforts, sessionId, effort)
        keep(keyHelpers, sessionId, keyHelper)
        keep(statusLines, sessionId, statusLine)
        const earlier = applied.get(sessionId) ?? []
        for (const a of [...earlier].reverse()) {
          if (!values.has(a.name) && $.env.get(a.name) === a.value) $.env.set(a.name, a.before)
        }
        const set: Applied[] = []
        for (const [name, value] of values) {
          set.push({ name, value, before: earlier.find((a) => a.name === name)?.before ?? $.env.get(name) })
          $.env.set(name, value)
        }
        applied.set(sessionId, set)
        if (set.length > 0) $.log.debug(`set ${set.map((s) => s.name).join(', ')} from the settings env`)
      } catch (err) {
        $.log.warn(`the settings env could not be applied: ${describeError(err)}`)
      }
    }
    const refresh = async ($: ModApi) => {
      const sessionId = $.session.id() as string
      if (!layers.has(sessionId)) return
      const flags = await flagsOf($)
      if (flagLayers(flags) !== layers.get(sessionId)) await load($, sessionId, $.session.cwd() as string, flags)
    }

    // Before next(): every other mod's start (SessionStart hooks, MCP servers, the first Bash
    // shell) comes after, whatever the load order, and the earlier the mod the fewer read before it.
    on('session.start', async ($, e, next) => {
      await load($, e.sessionId, e.cwd, await flagsOf($))
      return next(e)
    })
    on('turn.start', async ($, e, next) => {
      await refresh($)
      return next(e)
    })
    on('tool.call', async ($, e, next) => {
      await refresh($)
      return next(e)
    })

    // The environment may be this process's own (query() without `env`): what the session's settings
    // set goes back once its SessionEnd hooks ran, so the next session in this process starts clean.
    on('session.end', async ($, e, next) => {
      const result = await next(e)
      for (const a of (applied.get(e.sessionId) ?? []).reverse()) {
        if ($.env.get(a.name) === a.value) $.env.set(a.name, a.before)
      }
      applied.delete(e.sessionId)
      layers.delete(e.sessionId)
      models.delete(e.sessionId)
      efforts.delete(e.sessionId)
      keyHelpers.delete(e.sessionId)
      statusLines.delete(e.sessionId)
      return result
    })
  },
})
