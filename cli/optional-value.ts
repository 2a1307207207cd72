/**
 * Claude Code's `-w, --worktree [name]`: the value may be left out. node:util parseArgs wants one
 * for a string option, so a flag with no word after it (the end, or another option next) is
 * spelled with an empty value (`--worktree=`), which the command reads as "no name given".
 */
export function fillOptionalValues(args: readonly string[], names: Readonly<Record<string, string>>): string[] {
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '--') {
      out.push(...args.slice(i))
      break
    }
    const name = names[arg]
    if (name === undefined) {
      out.push(arg)
      continue
    }
    const next = args[i + 1]
    if (next === undefined || next.startsWith('-')) out.push(`--${name}=`)
    else out.push(`--${name}`)
  }
  return out
}
