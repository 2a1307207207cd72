import { accessSync, constants, statSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { parse, quote } from 'shell-quote'
import type { CommandHandler } from './config-schema.js'
import type { HookSource } from './hooks-config.js'

export interface CommandLine {
  file: string
  args: string[]
  /** Set when the executable or script is known to be missing before spawning (R2). */
  launchError?: string
}

const PLACEHOLDERS = ['CLAUDE_PROJECT_DIR', 'CLAUDE_PLUGIN_ROOT', 'CLAUDE_PLUGIN_DATA'] as const
const INTERPRETERS = new Set(['node', 'python', 'python3', 'bash', 'sh', 'zsh', 'dash', 'ruby', 'perl', 'bun', 'deno', 'php'])
const SCRIPT = /[\\/]|\.(?:[cm]?[jt]s|py|sh|rb|pl|php)$/

/**
 * The argv for a command handler (spec §1.7, §4.2): shell form through `sh -c` (optionally wrapped
 * by CLAUDE_CODE_SHELL_PREFIX) or PowerShell; exec form spawned directly with `args`. Placeholders
 * are substituted in both forms; `${user_config.KEY}` only in exec form.
 */
export function commandLine(h: CommandHandler, source: HookSource, env: NodeJS.ProcessEnv, cwd: string): CommandLine {
  if (h.args) {
    const sub = (s: string) => substituteUserConfig(substitutePlaceholders(s, env), source)
    const file = sub(h.command)
    return { file, args: h.args.map(sub), launchError: missingExecutable(file, env, cwd) }
  }
  if (h.shell === 'powershell') {
    // PowerShell reads variables as ${env:NAME}; textual paths would break on spaces and quotes.
    let command = h.command
    for (const name of PLACEHOLDERS) command = command.split(`\${${name}}`).join(`\${env:${name}}`)
    const policy = env.CLAUDE_CODE_POWERSHELL_RESPECT_EXECUTION_POLICY === '1' ? [] : ['-ExecutionPolicy', 'Bypass']
    return { file: process.platform === 'win32' ? 'powershell.exe' : 'pwsh', args: ['-NoProfile', '-NonInteractive', ...policy, '-Command', command] }
  }
  const command = substitutePlaceholders(h.command, env)
  const prefix = env.CLAUDE_CODE_SHELL_PREFIX
  const line = prefix ? `${prefix} ${quote([command])}` : command
  return { file: '/bin/sh', args: ['-c', line], launchError: missingScript(command, env, cwd) }
}

function substitutePlaceholders(text: string, env: NodeJS.ProcessEnv): string {
  if (!text.includes('${')) return text
  let out = text
  for (const name of PLACEHOLDERS) if (env[name] !== undefined) out = out.split(`\${${name}}`).join(env[name]!)
  return out
}

function substituteUserConfig(text: string, source: HookSource): string {
  return text.replace(/\$\{user_config\.([A-Za-z0-9_]+)\}/g, (all, key: string) => source.pluginOptions?.[key] ?? all)
}

function executableProblem(path: string): string | undefined {
  try {
    if (!statSync(path).isFile()) return `${path}: not a file`
  } catch {
    return `${path}: no such file`
  }
  return isExecutableFile(path) ? undefined : `${path}: not executable`
}

/** Whether `path` is a file this process may execute (a directory with the x bit is not). */
export function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}

function missingExecutable(file: string, env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  if (/[\\/]/.test(file)) {
    return executableProblem(resolve(cwd, file))
  }
  const dirs = (env.PATH ?? '').split(':').filter(Boolean)
  return dirs.some((d) => isExecutableFile(resolve(d, file))) ? undefined : `${file}: command not found on PATH`
}

/**
 * For a simple shell command whose program is a path, or an interpreter given a script path, checks
 * that the file exists. Without this, `node missing.js` or `python3 missing.py` exits with a status
 * that can read as a deliberate block (#80697); with it, the hook is a launch error and fails open.
 */
function missingScript(command: string, env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  let unknownVar = false
  let tokens: ReturnType<typeof parse>
  try {
    tokens = parse(command, (name) => {
      if (env[name] === undefined) unknownVar = true
      return env[name] ?? ''
    })
  } catch {
    return undefined
  }
  if (unknownVar || command.includes('`') || command.includes('$(')) return undefined
  if (!tokens.every((t): t is string => typeof t === 'string')) return undefined
  const words = tokens.filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)).map((w) => (w.startsWith('~/') && env.HOME ? env.HOME + w.slice(1) : w))
  const program = words[0]
  if (program === undefined) return undefined
  if (/[\\/]/.test(program)) {
    return executableProblem(resolve(cwd, program))
  }
  if (!INTERPRETERS.has(basename(program))) return undefined
  for (const arg of words.slice(1)) {
    // Inline code (`-c`, `-lc`, `-e`, `--eval`, `-m module`, stdin): there is no script file to check.
    if (/^-[A-Za-z]*[cemp]$/.test(arg) || ['--eval', '--print', '-'].includes(arg)) return undefined
    if (arg.startsWith('-')) continue
    if (!SCRIPT.test(arg)) return undefined
    const path = resolve(cwd, arg)
    try {
      statSync(path)
      return undefined
    } catch {
      return `${program}: script ${path} does not exist`
    }
  }
  return undefined
}
