/**
 * The command the exit prints to resume the session: `modloop`, the launch options again, the kept
 * worktree, `--resume <id>`. Options holding a path (a `/` or `.`) are left out when the line
 * would not fit the terminal's width, as Claude Code leaves them out, so the command stays on one
 * line to copy.
 */
export function resumeCommand(sessionId: string, flags: string | undefined, worktreeName: string | undefined, columns: number | undefined): string {
  const tail = `${worktreeName ? `--worktree "${worktreeName}" ` : ''}--resume ${sessionId}`
  const full = `modloop ${flags} ${tail}`
  const fits = !/[/.]/.test(flags ?? '') || (columns !== undefined && full.length <= columns)
  return flags && fits ? full : `modloop ${tail}`
}
