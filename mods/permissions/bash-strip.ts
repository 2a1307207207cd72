/**
 * What is peeled off a simple command before rules see it (spec loop-and-sdk §3.4): wrappers that
 * only change how the real command runs (`timeout 5 npm test` is `npm test` to a rule), and
 * leading `VAR=value` assignments — any of them for deny and ask, only harmless ones for allow,
 * since `PATH=./evil npm test` is not the `npm test` a rule approved.
 */

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/

// Variables that change which program runs or what it loads: never dropped for an allow.
const UNSAFE_VARS = new Set([
  'PATH', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'LD_AUDIT', 'NODE_OPTIONS', 'NODE_PATH', 'PYTHONPATH', 'PYTHONSTARTUP',
  'PYTHONHOME', 'PERL5LIB', 'PERL5OPT', 'RUBYOPT', 'RUBYLIB', 'BASH_ENV', 'ENV', 'IFS', 'PS4', 'PROMPT_COMMAND',
  'SHELLOPTS', 'BASHOPTS', 'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_EXEC_PATH', 'GIT_DIR', 'GIT_WORK_TREE', 'EDITOR', 'VISUAL',
  'PAGER', 'GIT_PAGER', 'HOME', 'ZDOTDIR', 'npm_config_script_shell',
])

function safeAssignment(word: string): boolean {
  const name = word.slice(0, word.indexOf('='))
  const value = word.slice(word.indexOf('=') + 1)
  if (UNSAFE_VARS.has(name) || name.startsWith('LD_') || name.startsWith('DYLD_') || name.startsWith('GIT_CONFIG')) return false
  return !value.includes('$(') && !value.includes('`')
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

/** The words a rule is matched against. */
export function stripForRules(argv: readonly string[], behavior: 'allow' | 'deny'): string[] {
  let i = 0
  while (i < argv.length && ASSIGNMENT.test(argv[i]!) && (behavior === 'deny' || safeAssignment(argv[i]!))) i++
  for (;;) {
    const wrapper = WRAPPERS[argv[i] ?? '']
    if (!wrapper) break
    const skip = wrapper(argv.slice(i + 1))
    if (skip < 0 || i + 1 + skip >= argv.length) break
    i += 1 + skip
  }
  return argv.slice(i)
}
