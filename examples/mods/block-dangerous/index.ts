import { defineMod } from 'modloop'
import { z } from 'zod'

/** Commands that destroy a machine rather than a project; each is refused before the shell sees it. */
const DANGEROUS: { pattern: RegExp; why: string }[] = [
  { pattern: /\brm\s+(-[a-zA-Z]*[rf][a-zA-Z]*\s+)+(\/|~|\$HOME)(\s|$|\*)/, why: 'deletes the root or home directory' },
  { pattern: /\bmkfs(\.\w+)?\b/, why: 'formats a filesystem' },
  { pattern: /\bdd\b[^|;&]*\bof=\/dev\//, why: 'writes over a raw device' },
  { pattern: /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/, why: 'is a fork bomb' },
  { pattern: /\bchmod\s+(-R\s+)?[0-7]*777\s+\/(\s|$)/, why: 'opens the whole filesystem to everyone' },
  { pattern: />\s*\/dev\/sd[a-z]\b/, why: 'writes over a disk' },
]

const options = z.object({
  /** Extra regular expressions (source text) to refuse, on top of the built-in list. */
  extra: z.array(z.string()).default([]),
})

/**
 * Refuses dangerous shell commands. tool.call sits above the permission check, so the refusal
 * holds whatever mode or rules are in force; failClosed makes a crash of this guard a refusal too.
 */
export default defineMod({
  name: 'block-dangerous',
  description: 'Refuses shell commands that would wreck the machine (rm -rf /, mkfs, dd to a device, …)',
  options,
  register(on, opts) {
    const extra = opts.extra.map((source) => ({ pattern: new RegExp(source), why: `matches the configured pattern /${source}/` }))
    const rules = [...DANGEROUS, ...extra]
    on('tool.call', { tool: 'Bash' }, async (_$, e, next) => {
      const command = String(e.command ?? '')
      const hit = rules.find((r) => r.pattern.test(command))
      if (hit) return { deny: `block-dangerous: refused "${command}": it ${hit.why}` }
      return next(e)
    }, { failClosed: true })
  },
})
