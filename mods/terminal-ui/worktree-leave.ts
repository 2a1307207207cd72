import { describeError } from '../../core/errors.js'
import { removeWorktree, unlockWorktree, worktreeChanges, type Worktree } from '../_shared/worktree.js'
import type { App } from './app.js'
import type { Paint } from './color.js'

type Env = Record<string, string | undefined>

/** What becomes of the session's worktree once the session has ended: the person's answer at exit. */
export interface Leave {
  worktree: Worktree
  keep: boolean
  files: number
  commits: number
}

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

/**
 * Asked while the session still runs, as Claude Code asks on `/exit` or Ctrl+D in a worktree
 * session: a worktree with nothing in it is to be removed, unasked; one holding files not
 * committed or commits of its own asks Keep or Remove. Esc answers undefined: the exit is called
 * off and the session goes on at its prompt.
 */
export async function askLeave(app: App, w: Worktree, env: Env): Promise<Leave | undefined> {
  const { commits, files } = await worktreeChanges(w, env)
  if (commits === 0 && files === 0) return { worktree: w, keep: false, files, commits }
  const { value } = await app.choose<'keep' | 'remove' | 'stay'>(['Exiting worktree session', lossText(files, commits, w.branch)], [
    { label: `Keep worktree    Stays at ${w.path}`, value: 'keep' },
    { label: 'Remove worktree  All changes and commits will be lost.', value: 'remove' },
  ], 'stay')
  return value === 'stay' ? undefined : { worktree: w, keep: value === 'keep', files, commits }
}

/**
 * Carries out the answer once the session has ended, below the screen given back (after the
 * resume line, as Claude Code prints it). Keeping lets go of the session's lock, so the work can be picked up later.
 */
export async function settleLeave(write: (line: string) => void, paint: Paint, l: Leave, env: Env): Promise<void> {
  const w = l.worktree
  if (l.keep) {
    await unlockWorktree(w.path, w.repo, env)
    return write(`Worktree kept. Your work is saved at ${w.path} on branch ${w.branch}`)
  }
  write(paint.dim('Removing worktree…'))
  try {
    await removeWorktree(w, env)
  } catch (err) {
    return write(paint.red(`The worktree could not be removed: ${describeError(err)}`))
  }
  const changed = l.files > 0 || l.commits > 0
  write(changed ? `Worktree removed. ${discardedText(l.files, l.commits)}` : 'Worktree removed (no changes)')
}

/** What removing would lose, in Claude Code's words. */
function lossText(files: number, commits: number, branch: string): string {
  const uncommitted = count(files, 'uncommitted file')
  const made = `${count(commits, 'commit')} on ${branch}`
  if (files > 0 && commits > 0) return `You have ${uncommitted} and ${made}. All will be lost if you remove.`
  if (files > 0) return `You have ${uncommitted}. These will be lost if you remove the worktree.`
  return `You have ${made}. The branch will be deleted if you remove the worktree.`
}

function discardedText(files: number, commits: number): string {
  if (commits > 0 && files > 0) return `${count(commits, 'commit')} and uncommitted changes were discarded.`
  if (commits > 0) return `${count(commits, 'commit')} ${commits === 1 ? 'was' : 'were'} discarded.`
  return 'Uncommitted changes were discarded.'
}
