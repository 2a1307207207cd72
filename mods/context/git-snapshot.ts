import { childProcess } from '../../hooks-runner/child-process.js'

export interface GitOptions {
  timeoutMs: number
  /** Longer short-status output is cut at a line boundary. */
  maxStatusChars: number
}

/** One git command's stdout (trailing space trimmed), or undefined when git is missing, fails or times out. */
function git(args: string[], cwd: string, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    childProcess().execFile('git', args, {
      cwd, timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024, windowsHide: true,
      // A snapshot must not take the index lock from under the user's own git commands.
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' },
    }, (err, stdout) => {
      // A status too long to buffer is still a status: its head is all the snapshot shows anyway.
      const overflow = (err as NodeJS.ErrnoException | null)?.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER'
      resolve(err && !overflow ? undefined : String(stdout).trimEnd())
    })
  })
}

/**
 * The git block of the system prompt: branch, main branch, short status and the last five
 * commits, read once at session start. Three git commands run side by side (spawning is the
 * main cost, so status also gives the branch). Undefined outside a repository or without git:
 * the block is then simply left out.
 */
export async function gitSnapshot(cwd: string, options: GitOptions): Promise<string | undefined> {
  const run = (...args: string[]) => git(args, cwd, options.timeoutMs)
  const [status, log, refs] = await Promise.all([
    run('status', '--short', '--branch'),
    run('log', '--oneline', '-n', '5'),
    run('for-each-ref', '--format=%(refname)%09%(symref)', 'refs/remotes/origin/HEAD', 'refs/heads/main', 'refs/heads/master'),
  ])
  if (status === undefined) return undefined
  const [head = '', ...changes] = status.split('\n')
  const main = mainBranch(refs ?? '')
  return [
    'gitStatus: the state of the repository when this session started. It is a snapshot: it does not change as the conversation goes on.',
    `Current branch: ${branchOf(head)}`,
    ...(main ? [`Main branch (the usual base for pull requests): ${main}`] : []),
    `Status:\n${capStatus(changes.join('\n'), options.maxStatusChars) || '(clean)'}`,
    `Recent commits:\n${log || '(no commits yet)'}`,
  ].join('\n\n')
}

/** The branch from the `## …` line of `status --branch`: `main...origin/main [ahead 1]`, `No commits yet on main`, `HEAD (no branch)`. */
function branchOf(head: string): string {
  const line = head.replace(/^## /, '')
  const unborn = /^(?:No commits yet|Initial commit) on (.+)$/.exec(line)
  if (unborn) return unborn[1]!
  if (line.startsWith('HEAD (no branch)')) return '(detached HEAD)'
  return line.split('...')[0]!.split(' [')[0]!
}

/** What origin/HEAD points at, else a local main or master. */
function mainBranch(refs: string): string | undefined {
  const rows = refs.split('\n').filter(Boolean).map((r) => r.split('\t') as [string, string?])
  const origin = rows.find(([ref]) => ref === 'refs/remotes/origin/HEAD')?.[1]
  if (origin) return origin.replace(/^refs\/remotes\/origin\//, '')
  return rows.map(([ref]) => ref.replace(/^refs\/heads\//, '')).find((b) => b === 'main' || b === 'master')
}

function capStatus(status: string, max: number): string {
  if (status.length <= max) return status
  const cut = status.lastIndexOf('\n', max)
  const kept = status.slice(0, cut > 0 ? cut : max)
  const more = status.slice(kept.length).split('\n').filter(Boolean).length
  return `${kept}\n... (${more} more line${more === 1 ? '' : 's'}; run git status for the whole list)`
}
