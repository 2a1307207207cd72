import { describeError } from '../../core/errors.js'
import { removeWorktree, unlockWorktree, worktreeChanges, type Worktree } from '../_shared/worktree.js'
import type { App } from './app.js'
import type { Paint } from './color.js'
import type { MessageView } from './message-view.js'

type Env = Record<string, string | undefined>

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

/**
 * Leaving an interactive `--worktree` session, as Claude Code leaves one: a worktree with nothing
 * in it is removed with its branch, unasked; one holding files not committed or commits of its
 * own asks first. Keeping it lets go of the session's lock, so the work can be picked up later.
 * Esc keeps it: no work is lost on a stray key.
 */
export async function leaveWorktree(app: App, view: MessageView, paint: Paint, w: Worktree, env: Env): Promise<void> {
  const { commits, files } = await worktreeChanges(w, env)
  const changed = commits > 0 || files > 0
  if (changed) {
    const { value } = await app.choose(['Exiting worktree session', lossText(files, commits, w.branch)], [
      { label: `Keep worktree    Stays at ${w.path}`, value: 'keep' },
      { label: 'Remove worktree  All changes and commits will be lost.', value: 'remove' },
    ], 'keep')
    if (value === 'keep') {
      await unlockWorktree(w.path, w.repo, env)
      return view.print(`Worktree kept. Your work is saved at ${w.path} on branch ${w.branch}`)
    }
  }
  await view.print(paint.dim('Removing worktree…'))
  try {
    await removeWorktree(w, env)
  } catch (err) {
    return view.print(paint.red(`The worktree could not be removed: ${describeError(err)}`))
  }
  await view.print(changed ? `Worktree removed. ${discardedText(files, commits)}` : 'Worktree removed (no changes)')
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
