import { basename } from 'node:path'

/**
 * What is peeled off a simple command before rules see it (spec loop-and-sdk §3.4): wrappers that
 * only change how the real command runs (`timeout 5 npm test` is `npm test` to a rule), and
 * leading `VAR=value` assignments — any of them for deny and ask, only known harmless ones for allow,
 * since `PATH=./evil npm test` or `GIT_EXTERNAL_DIFF=./x git diff` is not the command a rule approved.
 */

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/

// Variables known to change only how a program formats, logs or builds, never which program runs or
// what it loads (GIT_EXTERNAL_DIFF, PAGER, LD_PRELOAD do): only these are dropped for an allow, as in
// Claude Code. Any other assignment leaves the command unmatched by allow rules and not read-only.
const SAFE_VARS = new Set([
  'GOEXPERIMENT', 'GOOS', 'GOARCH', 'CGO_ENABLED', 'GO111MODULE', 'RUST_BACKTRACE', 'RUST_LOG', 'NODE_ENV',
  'PYTHONUNBUFFERED', 'PYTHONDONTWRITEBYTECODE', 'PYTEST_DISABLE_PLUGIN_AUTOLOAD', 'PYTEST_DEBUG', 'ANTHROPIC_API_KEY',
  'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'LC_TIME', 'CHARSET', 'TERM', 'COLORTERM', 'NO_COLOR', 'FORCE_COLOR',
  'CLICOLOR', 'CLICOLOR_FORCE', 'CI', 'TZ', 'LS_COLORS', 'LSCOLORS', 'GREP_COLOR', 'GREP_COLORS', 'GCC_COLORS',
  'TIME_STYLE', 'BLOCK_SIZE', 'BLOCKSIZE', 'COLUMNS', 'LINES',
])
// A locale a program could load from a file of the model's choosing (`LANG=../x`) is not harmless.
const LOCALE = /^((C|POSIX)|[A-Za-z]{2,3}_[A-Za-z]{2})(\.[\w-]+)?(@\w+)?$/
const VALUE_CHECKS: Record<string, (value: string) => boolean> = {
  LANG: (v) => LOCALE.test(v),
  LC_ALL: (v) => LOCALE.test(v),
  COLUMNS: (v) => /^\d+$/.test(v),
  LINES: (v) => /^\d+$/.test(v),
}

function safeAssignment(word: string): boolean {
  const name = word.slice(0, word.indexOf('='))
  const value = word.slice(word.indexOf('=') + 1)
  if (!SAFE_VARS.has(name) || /[$`]/.test(value) || value.startsWith('/') || /(^|\/)\.\.(\/|$)/.test(value)) return false
  return VALUE_CHECKS[name]?.(value) ?? true
}

/** Each wrapper: how many words it takes before the wrapped command, or -1 when it wraps nothing. */
const WRAPPERS: Record<string, (args: readonly string[]) => number> = {
  timeout: (args) => {
    let i = 0
    while (i < args.length && args[i]!.startsWith('-')) i += /^-[sk]$/.test(args[i]!) ? 2 : 1
    return i < args.length ? i + 1 : -1
  },
  time: (args) => (args[0] === '-p' ? 1 : 0),
  nice: (args) => (args[0] === '-n' ? 2 : /^(-\d+|-n\d+|--adjustment=)/.test(args[0] ?? '') ? 1 : 0),
  nohup: () => 0,
  builtin: () => 0,
  noglob: () => 0,
  // `command -v x` asks where x is; only the bare form runs x.
  command: (args) => (args[0]?.startsWith('-') ? -1 : 0),
  stdbuf: (args) => {
    let i = 0
    while (i < args.length && args[i]!.startsWith('-')) i += /^-[ioe]$/.test(args[i]!) ? 2 : 1
    return i
  },
  // Only bare xargs: with flags it can run anything in any way.
  xargs: (args) => (args[0] === undefined || args[0].startsWith('-') ? -1 : 0),
}

/** Skips options (those in `withValue` take the next word) and, when `assignments`, `VAR=value` words. */
const options = (withValue?: RegExp, assignments = false) => (args: readonly string[]) => {
  let i = 0
  while (i < args.length && (args[i]!.startsWith('-') || (assignments && ASSIGNMENT.test(args[i]!)))) {
    if (args[i] === '--') return i + 1
    i += withValue?.test(args[i]!) ? 2 : 1
  }
  return i
}

/**
 * `taskset mask command`, `chrt priority command`, `flock file command`: options, one word, then the
 * command. With -p they change a running process and run nothing.
 */
const optionsThenOne = (withValue?: RegExp) => (args: readonly string[]) => {
  const i = options(withValue)(args)
  return args.slice(0, i).some((a) => /^-[a-z]*p/.test(a)) ? -1 : i + 1
}

/**
 * Wrappers that run the command under another user, environment or process, stripped only for
 * deny and ask: `sudo rm x` and `env -i rm x` still remove x, so `Bash(rm *)` denies them, as in
 * Claude Code; an allow rule does not approve them, since they change what the command may do.
 */
const DENY_WRAPPERS: Record<string, (args: readonly string[]) => number> = {
  // `command -p rm x` runs rm found on a default PATH; `-v` and `-V` only say where it is.
  command: (args) => {
    const i = options()(args)
    return args.slice(0, i).some((a) => /^-[pvV]*[vV]/.test(a)) ? -1 : i
  },
  env: options(/^-[uCS]$/, true),
  sudo: options(/^-[ugpCDrtUTh]$/, true),
  doas: options(/^-[uC]$/),
  exec: options(/^-a$/),
  setsid: options(),
  ionice: options(/^-[cnpP]$/),
  taskset: optionsThenOne(),
  chrt: optionsThenOne(),
  flock: optionsThenOne(/^-[wE]$/),
  watch: options(/^-n$/),
}

/** The words a rule is matched against; for deny, wrappers are known by name however called (`/usr/bin/env`). */
export function stripForRules(argv: readonly string[], behavior: 'allow' | 'deny'): string[] {
  let i = 0
  while (i < argv.length && ASSIGNMENT.test(argv[i]!) && (behavior === 'deny' || safeAssignment(argv[i]!))) i++
  for (;;) {
    const name = behavior === 'deny' ? basename(argv[i] ?? '') : argv[i] ?? ''
    const wrapper = (behavior === 'deny' ? DENY_WRAPPERS[name] : undefined) ?? WRAPPERS[name]
    if (!wrapper) break
    const skip = wrapper(argv.slice(i + 1))
    if (skip < 0 || i + 1 + skip >= argv.length) break
    i += 1 + skip
  }
  return argv.slice(i)
}

/**
 * The command as called by its name: `/bin/rm x` and `./rm x` are `rm x` to a deny rule and to the
 * built-in checks, as in Claude Code, so a path cannot slip a command past them.
 */
export function byName(argv: readonly string[]): string[] {
  return argv.length > 0 && argv[0]!.includes('/') ? [basename(argv[0]!), ...argv.slice(1)] : [...argv]
}

/**
 * Whether the command runs under xargs, which adds words read from its input (`echo /etc/x | xargs
 * cat`): the paths it touches are not on the line, so no built-in knowledge of the command approves it.
 */
export function takesInputWords(argv: readonly string[]): boolean {
  const kept = stripForRules(argv, 'allow')
  return argv.slice(0, argv.length - kept.length).includes('xargs')
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash'])

/**
 * The script a shell is told to run (`bash -c 'rm x'`, `sh -ec '…'`), or undefined when the command
 * is no shell given `-c`. Its commands are not the line's parts, so rules have to look inside it.
 */
export function shellScript(argv: readonly string[]): string | undefined {
  if (!SHELLS.has(basename(argv[0] ?? ''))) return undefined
  let script = false
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!
    if (/^[-+]o$/.test(a)) i++
    else if (/^-[A-Za-z]+$/.test(a)) script ||= a.includes('c')
    else if (!/^(\+|--)/.test(a)) return script ? a : undefined
  }
  return undefined
}
