import type { Part } from './bash-split.js'

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s
const DECLARERS = new Set(['export', 'readonly', 'local', 'declare', 'typeset'])

/**
 * The parts with `$name` replaced by what an earlier part of the same line set it to
 * (`a=rm; $a x` runs `rm x`), for deny and ask rules, as Claude Code reads them. Where the value
 * holds in a subshell or pipeline is not worked out: for a deny, seeing it everywhere after is safe.
 */
export function withAssignedValues(parts: readonly Part[]): Part[] {
  const values = new Map<string, string>()
  return parts.map((part) => {
    const argv = part.argv.map((word) => word.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (text, name: string) => values.get(name) ?? text))
    const words = DECLARERS.has(argv[0] ?? '') ? argv.slice(1) : argv
    if (words.length > 0 && words.every((w) => ASSIGNMENT.test(w))) {
      for (const w of words) {
        const [, name, value] = ASSIGNMENT.exec(w)!
        values.set(name!, value!)
      }
    }
    return { ...part, argv }
  })
}
