/** One option as node:util parseArgs reports it with `tokens: true`. */
export interface OptionToken {
  kind: 'option'
  name: string
  rawName: string
  value?: string
  inlineValue?: boolean
}

// Options that pick or name the session, or the worktree the hint names itself: giving them again would not resume it.
const SESSION_OPTIONS = new Set(['resume', 'continue', 'fork-session', 'session-id', 'resume-session-at', 'rewind-files', 'worktree', 'help'])
// What can be pasted back into a shell as it is; a word with anything else (quotes, spaces, JSON) drops every option.
const FLAG = /^-[\w/:@=+-]*$/
const VALUE = /^[\w./:+][\w./:@=+-]*$/
const DEVICE = /(^|=)\/(dev|proc)\//

/**
 * The launch options the exit's resume hint repeats, as Claude Code's does (`claude --model opus
 * --resume <id>`), so the resumed session starts as this one did: every option but those that pick
 * the session. Empty when one of them cannot be written back safely, rather than some of them.
 */
export function resumeFlags(tokens: readonly { kind: string }[]): string {
  const words: string[] = []
  for (const t of tokens.filter((t): t is OptionToken => t.kind === 'option')) {
    if (SESSION_OPTIONS.has(t.name)) continue
    const flag = t.inlineValue ? `${t.rawName}=${t.value}` : t.rawName
    const value = t.inlineValue || t.value === undefined ? [] : [t.value]
    if (!FLAG.test(flag) || !value.every((v) => VALUE.test(v)) || [flag, ...value].some((w) => DEVICE.test(w))) return ''
    words.push(flag, ...value)
  }
  return words.join(' ')
}
