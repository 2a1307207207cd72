import { basename, delimiter, isAbsolute, join } from 'node:path'
import { isExecutableFile } from '../../hooks-runner/command-line.js'

type Env = Readonly<Record<string, string | undefined>>

export interface CommandShell {
  /** What Bash commands run in: `bash` (found on the PATH) unless CLAUDE_CODE_SHELL names another. */
  shell: string
  /** Why CLAUDE_CODE_SHELL was set aside for bash, when it was. */
  warning?: string
}

const DEFAULT: CommandShell = { shell: 'bash' }

// One answer per value and PATH: asked at each command, the file system is asked once.
let last: { key: string; answer: CommandShell } | undefined

/**
 * The shell Bash commands run in. `CLAUDE_CODE_SHELL`, as in Claude Code, overrides it for one whose
 * name says bash or zsh (`/bin/zsh`, `/opt/homebrew/bin/bash`, `zsh` on the PATH): the command
 * texts, their `cd` tracking and the model's instructions assume one of the two. A value naming
 * another shell, or no executable file, is set aside for bash with a warning.
 */
export function commandShell(env: Env): CommandShell {
  const value = env.CLAUDE_CODE_SHELL?.trim()
  if (!value) return DEFAULT
  const key = `${value}\0${env.PATH ?? ''}`
  if (last?.key === key) return last.answer
  const answer = resolveShell(value, env.PATH ?? '')
  last = { key, answer }
  return answer
}

function resolveShell(value: string, path: string): CommandShell {
  if (!/bash|zsh/.test(basename(value))) return { ...DEFAULT, warning: `CLAUDE_CODE_SHELL=${value} is not a bash or zsh shell; Bash commands run in bash` }
  const candidates = isAbsolute(value) ? [value] : value.includes('/') ? [] : path.split(delimiter).filter(Boolean).map((dir) => join(dir, value))
  const found = candidates.find(isExecutableFile)
  if (!found) return { ...DEFAULT, warning: `CLAUDE_CODE_SHELL=${value} is not an executable file${isAbsolute(value) || value.includes('/') ? '' : ' on the PATH'}; Bash commands run in bash` }
  return { shell: found }
}

/** The shell CLAUDE_CODE_SHELL names, when Bash commands do run in it: its name, for the model's environment facts. */
export function chosenShellName(env: (name: string) => string | undefined): string | undefined {
  const value = env('CLAUDE_CODE_SHELL')
  if (!value?.trim()) return undefined
  const { shell, warning } = commandShell({ CLAUDE_CODE_SHELL: value, PATH: env('PATH') })
  return warning ? undefined : basename(shell)
}
