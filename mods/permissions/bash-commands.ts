import { DISCARD, type Part } from './bash-split.js'

/**
 * Built-in knowledge of a few commands. A reader answers the path arguments of a call that only
 * reads (they must lie inside the working directories for the call to run unasked), or null
 * when this call may write or run something else. The list is short on purpose: a command is on
 * it only when no ordinary flag makes it write a file or run another program.
 */
type Reader = (args: readonly string[]) => string[] | null

const operands = (args: readonly string[]) => args.filter((a) => !a.startsWith('-'))
const everyOperand: Reader = operands
const noPaths: Reader = () => []

const grep: Reader = (args) => {
  const ops = operands(args)
  // Without -e or -f the first operand is the pattern, not a file.
  return args.some((a) => a === '-e' || a === '-f' || a.startsWith('--regexp') || a.startsWith('--file')) ? ops : ops.slice(1)
}

const FIND_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'])
const find: Reader = (args) => {
  if (args.some((a) => FIND_ACTIONS.has(a))) return null
  const paths: string[] = []
  for (const a of args) {
    if (a.startsWith('-') || a === '(' || a === '!') break
    paths.push(a)
  }
  return paths.length > 0 ? paths : ['.']
}

// Subcommands that only read the repository (and flags that would make them write a file).
const GIT_READS = new Set(['status', 'diff', 'log', 'show', 'blame', 'ls-files', 'rev-parse', 'describe', 'shortlog'])
const GIT_LISTS: Record<string, Set<string>> = {
  branch: new Set(['-a', '-r', '-v', '-vv', '--list', '--all', '--remotes', '--show-current']),
  remote: new Set(['-v', '--verbose']),
  tag: new Set(['-l', '--list']),
}
const git: Reader = (args) => {
  const [sub, ...rest] = args
  if (sub === undefined || rest.some((a) => a.startsWith('--output') || a === '--ext-diff' || a.startsWith('--exec'))) return null
  // Outside a repository's view, `diff --no-index` reads the two files it is given, wherever they are.
  if (sub === 'diff' && rest.includes('--no-index')) return operands(rest).filter((a) => !DISCARD.has(a))
  if (GIT_READS.has(sub)) return []
  // `git stash list` and `show` read; a bare `git stash` (or push, pop, drop…) changes the tree.
  if (sub === 'stash') return rest[0] === 'list' || rest[0] === 'show' ? [] : null
  const listing = GIT_LISTS[sub]
  return listing && rest.every((a) => listing.has(a)) ? [] : null
}

// `sed -n '2,5p' file` prints lines; any other script may write (`w`), run (`e`) or read more (`r`),
// so only that form is read-only, as in Claude Code.
const sed: Reader = (args) => {
  const flags = args.filter((a) => a.startsWith('-'))
  const [script, ...files] = operands(args)
  const quiet = flags.some((a) => a === '-n' || a === '--quiet' || a === '--silent')
  const known = flags.every((a) => /^-[nEr]+$/.test(a) || a === '--quiet' || a === '--silent')
  return quiet && known && /^(\d+|\$)(,(\d+|\$))?p$/.test(script ?? '') ? files : null
}

const READ_ONLY: Record<string, Reader> = {
  ls: everyOperand, cat: everyOperand, head: everyOperand, tail: everyOperand, wc: everyOperand, stat: everyOperand,
  du: everyOperand, diff: everyOperand,
  // `file -C` compiles a magic file and writes it, `file -f list` prints the list's lines; `tree -o`
  // writes its listing, `-R` one per folder. (A flag's own argument ends the cluster: `-mC` is no -C.)
  file: (args) => (args.some((a) => /^-[^-meFP]*[Cf]/.test(a) || a === '--compile' || a.startsWith('--files-from')) ? null : operands(args)),
  tree: (args) => (args.some((a) => /^-[^-LPIHT]*[oR]/.test(a) || a.startsWith('--fromfile')) ? null : operands(args)),
  // A bare `cd` goes home.
  cd: (args) => (operands(args).length > 0 ? operands(args) : ['~']),
  grep, egrep: grep, fgrep: grep, find, git,
  echo: noPaths, pwd: noPaths, which: noPaths, whoami: noPaths, true: noPaths, false: noPaths, uname: noPaths,
  basename: noPaths, dirname: noPaths, type: noPaths, sleep: noPaths,
  // `date -f file` prints each line of a file it cannot read as a date: the file's text.
  date: (args) => (args.some((a) => /^-[uR]*[sf]/.test(a) || a.startsWith('--set') || a.startsWith('--file')) ? null : []),
  rg: (args) => (args.some((a) => a.startsWith('--pre')) ? null : grep(args)),
  cut: everyOperand, readlink: everyOperand, realpath: everyOperand, tr: noPaths, test: noPaths, '[': noPaths,
  // `sort -o file` writes the file, `--compress-program` runs a program.
  sort: (args) => (args.some((a) => /^-[^-]*o/.test(a) || /^--(output|compress-program|files0-from)/.test(a)) ? null : operands(args)),
  // The first operand is the filter, unless it comes from a file.
  jq: (args) => (args.some((a) => a === '-f' || a.startsWith('--from-file')) ? operands(args) : operands(args).slice(1)),
  sed,
}

/** The file-system commands acceptEdits approves inside the working directories. */
const FS_COMMANDS: Record<string, Reader> = {
  mkdir: everyOperand, touch: everyOperand, rm: everyOperand, rmdir: everyOperand, mv: everyOperand, cp: everyOperand,
  sed: (args) => {
    const files: string[] = []
    let script = !args.some((a) => a === '-e' || a === '-f' || a.startsWith('--expression') || a.startsWith('--file'))
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!
      if (a === '-e' || a === '-f') i++
      else if (a.startsWith('-')) continue
      else if (script) script = false
      else files.push(a)
    }
    return files
  },
}

const WRITES = new Set(['>', '>>', '&>', '&>>', '>|', '<>'])

/** Files a part's redirections write (`2>&1` and `>/dev/null` write none). */
export function writtenFiles(part: Part): string[] {
  return part.redirects
    .filter((r) => WRITES.has(r.op) || (r.op === '>&' && !/^(\d+|-)$/.test(r.target)))
    .map((r) => r.target)
    .filter((t) => !DISCARD.has(t))
}

/** Files a part's redirections read. */
export function readFiles(part: Part): string[] {
  return part.redirects.filter((r) => r.op === '<').map((r) => r.target)
}

/** The paths a read-only part touches, or null when the part is not read-only. */
export function readOnlyPaths(argv: readonly string[], part: Part): string[] | null {
  const reader = READ_ONLY[argv[0] ?? '']
  if (!reader || writtenFiles(part).length > 0) return null
  const paths = reader(argv.slice(1))
  return paths && [...paths, ...readFiles(part)]
}

/** The paths an acceptEdits file-system part changes, or null when it is not one of them. */
export function fsCommandPaths(argv: readonly string[], part: Part): string[] | null {
  const reader = FS_COMMANDS[argv[0] ?? '']
  const paths = reader?.(argv.slice(1))
  return paths ? [...paths, ...writtenFiles(part), ...readFiles(part)] : null
}

/**
 * The paths a read-only part reads and the files its redirections write (`ls > out.txt`), or null
 * when it is not read-only: acceptEdits approves it when all of them lie inside the working directories.
 */
export function redirectedReadPaths(argv: readonly string[], part: Part): string[] | null {
  const written = writtenFiles(part)
  if (written.length === 0) return null
  const reads = readOnlyPaths(argv, { ...part, redirects: part.redirects.filter((r) => r.op === '<') })
  return reads && [...reads, ...written]
}

/** The targets of `rm`/`rmdir` (checked against the critical paths), or null for other commands. */
export function removalTargets(argv: readonly string[]): string[] | null {
  return argv[0] === 'rm' || argv[0] === 'rmdir' ? operands(argv.slice(1)) : null
}

export const isFsCommand = (name: string): boolean => name in FS_COMMANDS
