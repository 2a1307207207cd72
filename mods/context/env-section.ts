import { release, type } from 'node:os'
import { basename } from 'node:path'
import { chosenShellName } from '../_shared/command-shell.js'

export interface EnvFacts {
  cwd: string
  /** The other directories the session may work in (--add-dir, additionalDirectories). */
  additionalDirs: readonly string[]
  isRepo: boolean
  platform: string
  osVersion: string
  shell: string
  date: string
}

/** The facts of the environment block that stay the same for the whole session. */
export function envFacts(cwd: string, isRepo: boolean, env: (name: string) => string | undefined, additionalDirs: readonly string[] = [], now = new Date()): EnvFacts {
  const pad = (n: number) => String(n).padStart(2, '0')
  const shellPath = env('SHELL') ?? (process.platform === 'win32' ? env('ComSpec') : undefined)
  return {
    cwd, additionalDirs, isRepo, platform: process.platform, osVersion: `${type()} ${release()}`,
    // The shell Bash commands run in, when CLAUDE_CODE_SHELL picks one, else the user's own.
    shell: chosenShellName(env) ?? (shellPath ? basename(shellPath).replace(/\.exe$/i, '') : 'unknown'),
    date: `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`,
  }
}

/** The environment block of the system prompt. */
export function renderEnv(facts: EnvFacts, model: string): string {
  return [
    'Facts about the environment you are working in:',
    '<env>',
    `Working directory: ${facts.cwd}`,
    `Is the directory a git repository: ${facts.isRepo ? 'yes' : 'no'}`,
    ...(facts.additionalDirs.length > 0 ? ['Additional working directories:', ...facts.additionalDirs.map((d) => `  - ${d}`)] : []),
    `Platform: ${facts.platform}`,
    `OS version: ${facts.osVersion}`,
    `Shell: ${facts.shell}`,
    `Today's date: ${facts.date}`,
    '</env>',
    `You are running on the model ${model}.`,
  ].join('\n')
}

/** The environment as Claude Code's minimal mode gives it: the working directory and the date, nothing else. */
export function renderBriefEnv(facts: EnvFacts): string {
  return `CWD: ${facts.cwd}\nDate: ${facts.date}`
}
