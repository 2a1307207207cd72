/**
 * Splits `--allowedTools` / `--disallowedTools` values into rules. Rules are separated by commas
 * or spaces, but not inside parentheses: `--allowedTools "Bash(npm test) Read"` is two rules,
 * and `Bash(git log --oneline, -5)` stays one.
 */
export function splitRuleList(values: readonly string[]): string[] {
  const rules: string[] = []
  for (const value of values) {
    let depth = 0
    let current = ''
    for (const c of value) {
      if (c === '(') depth++
      if (c === ')') depth = Math.max(0, depth - 1)
      if (depth === 0 && (c === ',' || /\s/.test(c))) {
        if (current) rules.push(current)
        current = ''
      } else current += c
    }
    if (current) rules.push(current)
  }
  return rules
}
