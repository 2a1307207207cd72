import { resolve } from 'node:path'
import { z } from 'zod'
import type { ModApi } from '../../core/mod/api.js'
import type { ToolOutput } from '../../core/tools/tool.js'
import { openNamedWorktree, randomWorktreeName, worktreeNameProblem } from '../_shared/named-worktree.js'
import { failure } from '../_shared/register-tool.js'
import { git, repoTop, type Worktree } from '../_shared/worktree.js'
import { q, type SessionWorktree } from './session-worktree.js'
import { builtinInput } from '../_shared/builtin-input.js'

export const enterInput = builtinInput('EnterWorktree', () => z.object({
  name: z.string().optional().describe('A name for the new worktree (made up when left out): letters, digits, ".", "_" and "-", in parts split by "/", 64 characters at most. Not with `path`.'),
  path: z.string().optional().describe('An existing worktree of this repository (one `git worktree list` shows) to move into, instead of making one. Not with `name`.'),
}))

export const ENTER_DESCRIPTION = `Moves the session into a git worktree of its own: a separate checkout on a new branch, where the shell, relative paths and hooks then work. Call it only when the user, or the project's instructions (CLAUDE.md), ask for work in a worktree.

- Do not use it to create or switch branches, or for ordinary work: use git for that.
- Needs a git repository, or a WorktreeCreate hook configured in settings.json (for other VCS).
- In a git repository it makes a new worktree in \`.claude/worktrees/<name>\` on a new branch \`worktree-<name>\`, from origin's default branch where there is one, else from HEAD.
- To move into a worktree that already exists (one \`git worktree list\` shows), give its \`path\` rather than a \`name\`; ExitWorktree never removes one entered that way.
- A new worktree (\`name\`) cannot be made while the session is already in one; leave it first with ExitWorktree.`

const AFTER = 'The session is now working in the worktree. Use ExitWorktree to leave mid-session, or exit the session to be prompted.'

type Enter = z.output<ReturnType<typeof enterInput>>
type Env = Record<string, string | undefined>

/** EnterWorktree: makes (or finds) the worktree; the caller moves the session into what it answers. */
export async function enterWorktree($: ModApi, i: Enter, from: string, active: SessionWorktree | undefined): Promise<ToolOutput | SessionWorktree> {
  if (i.name !== undefined && i.path !== undefined) return failure('Pass either `name` or `path`, not both.')
  const env = $.env.all()
  if (i.path !== undefined) return existing(resolve(from, i.path), active?.original ?? from, env)
  const name = i.name || randomWorktreeName()
  const problem = worktreeNameProblem(name)
  if (problem) return failure(problem)
  if (active) return failure('Already in a worktree session. Pass `path` to switch into another existing worktree, or use ExitWorktree to leave this one before creating a new worktree.')
  let made: Worktree | undefined
  const r = await $.worktree.create({
    name, cwd: from,
    make: async () => {
      if (await repoTop(from, env) === undefined) {
        throw new Error('Cannot create a worktree: not in a git repository and no WorktreeCreate hooks are configured. Configure WorktreeCreate hooks in settings.json to use worktree isolation with other VCS systems.')
      }
      made = await openNamedWorktree(from, name, env)
      return { path: made.path }
    },
  })
  if ('deny' in r) return failure(r.deny)
  if (r.made && made) return { ...made, original: from, owned: true, byHook: false }
  return { path: r.path, cwd: r.path, original: from, owned: true, byHook: true }
}

/** A worktree `git worktree list` names, entered as it is: the session does not own it. */
async function existing(path: string, original: string, env: Env): Promise<ToolOutput | SessionWorktree> {
  const repo = await repoTop(original, env)
  if (repo === undefined) return failure('Cannot enter an existing worktree: the current directory is not in a git repository.')
  const listed = (await git(['worktree', 'list', '--porcelain'], repo, env)).split('\n').filter((l) => l.startsWith('worktree ')).map((l) => l.slice('worktree '.length))
  if (!listed.includes(path) || path === repo) return failure(`Cannot enter ${q(path)}: it is not a worktree of the repository at ${q(repo)} (see \`git worktree list\`).`)
  const branch = await git(['branch', '--show-current'], path, env).catch(() => '')
  const base = await git(['rev-parse', 'HEAD'], path, env)
  return { path, cwd: path, original, owned: false, byHook: false, ...(branch ? { branch } : {}), base, repo }
}

/** What the model reads once the session is in the worktree. */
export function enteredText(w: SessionWorktree): string {
  const verb = w.owned ? 'Created' : 'Entered'
  return `${verb} worktree at ${q(w.path)}${w.branch ? ` on branch ${q(w.branch)}` : ''}. ${AFTER}`
}
