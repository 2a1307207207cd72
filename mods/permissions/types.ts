import type { PermissionUpdate } from './persist.js'
import type { PathPattern } from './path-rules.js'

export type Behavior = 'allow' | 'ask' | 'deny'

/** `auto` decides like `default` here; the auto-mode mod puts a classifier in front of its asks. */
export const MODES = ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions', 'auto'] as const
export type Mode = (typeof MODES)[number]

/** Where a rule came from, named as Claude Code names rule sources. */
export type SourceName = 'userSettings' | 'modloopConfig' | 'projectSettings' | 'localSettings' | 'flagSettings' | 'cliArg' | 'policySettings' | 'session' | 'command'

export interface RuleSource {
  name: SourceName
  /** The settings file, or a phrase ("the command line", "the modloop config"). */
  label: string
  /** What a `/path` rule is relative to: the project for its `.claude/` files, the folder of the user's and a `--settings` file, the cwd otherwise. */
  root: string
  /** Project-level sources widen access only in a trusted workspace. */
  projectLevel: boolean
}

/** Which tools a rule names: one name, a name glob (`mcp__*`), or every tool of an MCP server. */
export type ToolPattern =
  | { kind: 'name'; name: string }
  | { kind: 'glob'; glob: string; test: (name: string) => boolean }
  | { kind: 'server'; server: string }

/** What a rule's specifier matches, by the kind of tool it is written for. */
export type Content =
  | { kind: 'command'; pattern: string; test: (command: string) => boolean }
  | { kind: 'path'; pattern: PathPattern }
  | { kind: 'domain'; domain: string }
  | { kind: 'agent'; name: string }
  | { kind: 'param'; key: string; test: (value: string) => boolean }

export interface Rule {
  /** As written, e.g. `Bash(npm test)`; `rule` in a verdict. */
  text: string
  behavior: Behavior
  source: RuleSource
  tool: ToolPattern
  content?: Content
}

/**
 * A verdict. `rule` names what decided it: a rule as written, or a bracketed built-in such as
 * `[working-directory]` or `[mode:plan]`. An ask that only the mode caused (nothing matched, so
 * the call goes to the prompt) carries no rule, so a hook bridge may tell it from an ask rule.
 */
export interface Verdict {
  decision: Behavior
  reason?: string
  rule?: string
  /** Where the deciding rule came from (for `modloop permissions check`). */
  source?: string
  /** An ask: what the approver could grant so as not to be asked again (canUseTool's `suggestions`). */
  suggestions?: PermissionUpdate[]
  /** An ask about a file outside the working directories: that path. */
  blockedPath?: string
}

/** Real and as-given forms of the working directories (cwd first, then additional ones). */
export interface Roots {
  lexical: string[]
  real: string[]
}

/** An entry a project-level source set that an untrusted workspace does not honour. */
export interface Ignored {
  source: string
  entry: string
}

/** Everything a check needs, built once per session from every source. */
export interface Policy {
  cwd: string
  home: string
  mode: Mode
  rules: Rule[]
  roots: Roots
  /** The session's task output directory (the tasks mod's), which file-reading tools read unasked. */
  taskOutput?: Roots
  /** Directories other mods keep for the model (`grantDirectory`): the file tools read and write there unasked. */
  granted?: Roots
  trusted: boolean
  /** The file tools may not leave the working directories (the mod's `confineFileTools`). */
  confined?: boolean
  ignored: Ignored[]
  /** The source whose `disableBypassPermissionsMode` keeps bypassPermissions off, when one does. */
  bypassDisabledBy?: string
  /** Bad input found while loading: each names the file and the entry. */
  warnings: string[]
  /** Whether a Skill call for this skill asks (the commands mod knows); without it every one does. */
  skillAsks?: (name: string) => boolean
}
