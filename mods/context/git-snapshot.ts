import { childProcess } from '../../hooks-runner/child-process.js'

export interface GitOptions {
  timeoutMs: number
  /** Longer short-status output is cut at a line boundary. */
  maxStatusChars: number
  /** The environment git runs in (GIT_OPTIONAL_LOCKS and GIT_TERMINAL_PROMPT set over it); process.env when not given. */
  env?: NodeJS.ProcessEnv
}

// A snapshot must not take the index lock from under the user's own git commands.
const GIT_ENV = { GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' }
const LOG = ['log', '--oneline', '-n', '5']
const STATUS = ['status', '--short', '--branch']
const USER = ['config', 'user.name']
const MAX_OUTPUT = 4 * 1024 * 1024
const REFS = ['for-each-ref', '--format=%(refname)%09%(symref)', 'refs/remotes/origin/HEAD', 'refs/heads/main', 'refs/heads/master']

/** A command's stdout (trailing space trimmed), or undefined when it is missing, fails or times out. */
function run(file: string, args: string[], cwd: string, timeoutMs: number, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    childProcess().execFile(file, args, {
      cwd, timeout: timeoutMs, maxBuffer: MAX_OUTPUT, windowsHide: true, env,
    }, (err, stdout) => {
      // A status too long to buffer is still a status: its head is all the snapshot shows anyway.
      const overflow = (err as NodeJS.ErrnoException | null)?.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER'
      resolve(err && !overflow ? undefined : String(stdout).trimEnd())
    })
  })
}

/**
 * The four commands' outputs. Spawning is the cost that counts — each spawn forks the whole
 * Node process (~7 ms of a cold run's CPU apiece) — so where there is a POSIX shell one `sh`
 * runs all four, one after another, their outputs apart by NUL (which none of them prints),
 * the status last so that a status too long to buffer loses only its own tail. (Run side by side
 * in a pipeline they took longer here, on two cores busy with the start itself.) The shell's exit
 * status is the status command's: outside a repository it fails, and so does the snapshot.
 */
async function gitOutputs(cwd: string, timeoutMs: number, base: NodeJS.ProcessEnv): Promise<{ status?: string; log?: string; refs?: string; user?: string }> {
  const env = { ...base, ...GIT_ENV }
  if (process.platform === 'win32') {
    const [status, log, refs, user] = await Promise.all([STATUS, LOG, REFS, USER].map((args) => run('git', args, cwd, timeoutMs, env)))
    return { status, log, refs, user }
  }
  const quote = (args: string[]) => ['git', ...args].map((a) => `'${a}'`).join(' ')
  const script = `${quote(LOG)}; printf '\\0'; ${quote(REFS)}; printf '\\0'; ${quote(USER)}; printf '\\0'; exec ${quote(STATUS)}`
  const out = await runGroup(script, cwd, timeoutMs, env)
  if (out === undefined) return {}
  const [log, refs, user, status] = out.split('\0')
  return { log: log?.trimEnd(), refs: refs?.trimEnd(), user: user?.trim(), status }
}

/**
 * `sh -c script` in a process group of its own: its stdout (at most MAX_OUTPUT bytes: past that
 * the group is ended and what came is kept), or undefined when it failed, could not run or ran
 * past the timeout. At the timeout the group goes whole, so nothing git started outlives it and
 * holds the pipe.
 */
function runGroup(script: string, cwd: string, timeoutMs: number, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    let timedOut = false
    const child = childProcess().spawn('sh', ['-c', script], { cwd, detached: true, stdio: ['ignore', 'pipe', 'ignore'], env })
    const end = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    const timer = setTimeout(() => {
      timedOut = true
      end()
    }, timeoutMs)
    child.stdout!.on('data', (d: Buffer) => {
      if (size >= MAX_OUTPUT) return
      chunks.push(d)
      size += d.length
      if (size >= MAX_OUTPUT) end()
    })
    child.on('error', () => {
      clearTimeout(timer)
      resolve(undefined)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      const cut = size >= MAX_OUTPUT
      resolve(timedOut || (code !== 0 && !cut) ? undefined : Buffer.concat(chunks).subarray(0, MAX_OUTPUT).toString('utf8').trimEnd())
    })
  })
}

/**
 * The git block of the system prompt: branch, main branch, the git user's name (whose commits
 * are the user's own, as Claude Code tells the model), short status and the last five commits,
 * read once at session start (status also gives the branch). Undefined outside a
 * repository or without git: the block is then simply left out.
 */
export async function gitSnapshot(cwd: string, options: GitOptions): Promise<string | undefined> {
  const { status, log, refs, user } = await gitOutputs(cwd, options.timeoutMs, options.env ?? process.env)
  if (status === undefined) return undefined
  const [head = '', ...changes] = status.split('\n')
  const main = mainBranch(refs ?? '')
  return [
    'gitStatus: the state of the repository when this session started. It is a snapshot: it does not change as the conversation goes on.',
    `Current branch: ${branchOf(head)}`,
    ...(main ? [`Main branch (the usual base for pull requests): ${main}`] : []),
    ...(user ? [`Git user: ${user}`] : []),
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
