import { z } from 'zod'
import type { ToolOutput } from '../../core/tools/tool.js'
import { failure } from '../_shared/register-tool.js'
import { removeWorktree, unlockWorktree, worktreeChanges } from '../_shared/worktree.js'
import { q, type SessionWorktree } from './session-worktree.js'
import { builtinInput } from '../_shared/builtin-input.js'

export const exitInput = builtinInput('ExitWorktree', () => z.object({
  action: z.enum(['keep', 'remove']).describe('keep: the worktree and its branch stay on disk. remove: the worktree goes, and its branch with it (but not when a hook made the worktree, nor when git refuses to delete the branch).'),
  discard_changes: z.boolean().optional().describe('Only with remove: must be true to remove a worktree holding uncommitted files or commits not merged back; without it such a removal is refused and the changes listed. Set it only once the user has agreed to lose them.'),
}))

export const EXIT_DESCRIPTION = `Leaves a worktree session made by EnterWorktree and returns the session to the directory it was in before.

It only acts on the worktree EnterWorktree made or entered in this session: never on worktrees made by hand with \`git worktree add\`, nor from an earlier session. Called with no such session, it does nothing and says so.

Call it only when the user asks to leave the worktree. Parameters:
- \`action\` (required): "keep" leaves the worktree and its branch on disk (to come back to, or to keep changes); "remove" deletes the worktree and its branch (a worktree a hook made is removed by its WorktreeRemove hook).
- \`discard_changes\` (default false, only with "remove"): a worktree whose files are not all committed, or whose commits the original branch lacks, is removed only when this is true. When the tool refuses and lists the changes, confirm with the user before calling it again with \`discard_changes: true\`.`

const NO_SESSION = 'Nothing to exit: this session has not entered a worktree with EnterWorktree. ExitWorktree leaves only a worktree this session entered that way, never one made by hand or by an earlier session. Nothing on disk changed.'

type Exit = z.output<ReturnType<typeof exitInput>>
type Env = Record<string, string | undefined>

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

/** ExitWorktree: says what to do; `leave` moves the session back, and runs only when the exit goes ahead. */
export async function exitWorktree(i: Exit, active: SessionWorktree | undefined, env: Env, leave: () => void, hookRemove: (path: string) => Promise<void>): Promise<ToolOutput> {
  if (!active) return failure(NO_SESSION)
  const back = `Session is now back in ${q(active.original)}.`
  if (i.action === 'keep') {
    // The session no longer works there: its lock goes, as Claude Code lets go of it.
    if (active.owned && active.repo) await unlockWorktree(active.path, active.repo, env)
    leave()
    return { result: { action: 'keep', worktreePath: active.path, ...(active.branch ? { worktreeBranch: active.branch } : {}), originalCwd: active.original }, text: `Exited worktree. Your work is preserved at ${q(active.path)}${active.branch ? ` on branch ${q(active.branch)}` : ''}. ${back}` }
  }
  if (active.owned && active.byHook) {
    // git cannot tell what a hook's worktree holds; its WorktreeRemove hook removes it, run from inside it as Claude Code runs it.
    if (i.discard_changes !== true) {
      return failure(`Could not verify worktree state at ${q(active.path)}. Refusing to remove without explicit confirmation. Confirm with the user, then re-invoke with discard_changes: true to proceed \u2014 or use action: "keep" to preserve the worktree.`)
    }
    await hookRemove(active.path)
    leave()
    return { result: { action: 'remove', worktreePath: active.path, originalCwd: active.original }, text: `Exited and removed worktree at ${q(active.path)}. ${back}` }
  }
  if (!active.owned || !active.repo || !active.branch || !active.base) {
    return failure(`This session is not the owner of the worktree at ${q(active.path)} \u2014 it entered a pre-existing worktree via EnterWorktree({path}) \u2014 so this tool will not remove it. Use action: "keep" to return to ${q(active.original)}.`)
  }
  const { commits, files } = await worktreeChanges({ path: active.path, base: active.base }, env)
  const lost = [...(files > 0 ? [count(files, 'uncommitted file')] : []), ...(commits > 0 ? [`${count(commits, 'commit')} on ${q(active.branch)}`] : [])].join(' and ')
  if (lost && i.discard_changes !== true) {
    return failure(`Worktree has ${lost}. Removing will discard this work permanently. Confirm with the user, then re-invoke with discard_changes: true \u2014 or use action: "keep" to preserve the worktree.`)
  }
  leave()
  try {
    await removeWorktree({ path: active.path, branch: active.branch, repo: active.repo }, env)
  } catch (err) {
    return failure(`Exited the worktree, but it could not be removed: ${err instanceof Error ? err.message : String(err)}. ${back}`)
  }
  const discarded = lost ? ` Discarded ${lost.replace(/ on \u201c.*\u201d$/, '')}.` : ''
  return { result: { action: 'remove', worktreePath: active.path, originalCwd: active.original }, text: `Exited and removed worktree at ${q(active.path)}.${discarded} ${back}` }
}
