import type { HandlerConfig } from './config-schema.js'
import type { HookEventName } from './events.js'

export type SourceKind = 'managed' | 'user' | 'project' | 'local' | 'cli' | 'extra'

/** Where a handler was configured. Every resolved handler and every hook record carries one. */
export interface HookSource {
  kind: SourceKind
  /** The settings file, the `--settings` argument (`<inline>` for JSON text), or an extra source's name. */
  file: string
  /** The label a hooks listing shows: `User Settings`, `Project Settings`, `Plugin Hooks`, … */
  label: string
  /** Identical handlers are run once per class: all settings files share one, each extra source has its own. */
  dedupClass: string
  /** `${CLAUDE_PLUGIN_ROOT}` / `CLAUDE_PLUGIN_ROOT` for plugin hooks. */
  pluginRoot?: string
  /** `${CLAUDE_PLUGIN_DATA}` / `CLAUDE_PLUGIN_DATA` for plugin hooks. */
  pluginData?: string
  /** Plugin user options: `${user_config.KEY}` in exec form, and `CLAUDE_PLUGIN_OPTION_<KEY>` in the env. */
  pluginOptions?: Readonly<Record<string, string>>
  /** `once: true` is honoured only here (skill frontmatter, per the protocol). */
  honourOnce?: boolean
}

/** One handler after loading: its config, its group, its source, and its place in settings order. */
export interface ResolvedHandler {
  /** Position in settings order over every source; merging and conflicts follow it. */
  readonly id: number
  readonly event: HookEventName
  readonly matcher?: string
  /** Id of its matcher group (unique over every source). */
  readonly group: number
  readonly sequential: boolean
  readonly config: HandlerConfig
  readonly source: HookSource
  /** Key path inside its source, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  readonly path: string
  /** Display name: the command line, the URL, `server/tool`, or the head of the prompt. */
  readonly name: string
}

/** Everything the runner needs from the loaded settings. Build it with `loadHookSources` or `resolveHooks`. */
export interface HooksConfig {
  readonly handlers: readonly ResolvedHandler[]
  /** When set anywhere, an http hook runs only if its URL matches one of these `*` patterns. */
  readonly allowedHttpHookUrls?: readonly string[]
  /** When set anywhere, an outer bound on every http hook's own `allowedEnvVars`. */
  readonly httpHookAllowedEnvVars?: readonly string[]
}

export function handlerName(config: HandlerConfig): string {
  switch (config.type) {
    case 'command':
      return config.args ? [config.command, ...config.args].join(' ') : config.command
    case 'http':
      return config.url
    case 'mcp_tool':
      return `${config.server}/${config.tool}`
    case 'callback':
      return `callback ${config.name ?? (config.callback.name || '(anonymous)')}`
    default:
      return config.prompt.length > 60 ? `${config.prompt.slice(0, 57)}...` : config.prompt
  }
}

/** The dedup key of spec §1.3: source class, type, and what the handler runs. */
export function dedupKey(h: ResolvedHandler): string {
  const c = h.config
  const what =
    c.type === 'command' ? [c.command, c.args ?? null, c.shell ?? null] :
    c.type === 'http' ? [c.url] :
    c.type === 'mcp_tool' ? [c.server, c.tool, c.input ?? null] :
    // Two callbacks are the same hook only when they are the one function.
    c.type === 'callback' ? [callbackId(c.callback)] :
    [c.prompt, c.model ?? null]
  return JSON.stringify([h.source.dedupClass, c.type, what])
}

const callbackIds = new WeakMap<object, number>()
let lastCallbackId = 0
function callbackId(fn: object): number {
  let id = callbackIds.get(fn)
  if (id === undefined) callbackIds.set(fn, (id = ++lastCallbackId))
  return id
}
