/**
 * Whether a guess at the person's next prompt is worth showing, by the rules Claude Code applies
 * to its own (observed on its output): the words of one short instruction in the person's voice,
 * not praise, not the assistant speaking, not a note that there is nothing to suggest.
 */
export function suggestionOf(reply: string): string | undefined {
  const text = reply.trim()
  if (!text || text.includes('\n')) return undefined
  const words = text.split(/\s+/)
  if (words.length > MAX_WORDS) return undefined
  if (words.length === 1 && !ONE_WORD.has(text.toLowerCase())) return undefined
  // Markdown emphasis is the model describing a suggestion, not the person typing one.
  if (/[*_]{1,2}\S/.test(text) && /\S[*_]{1,2}$/.test(text)) return undefined
  // Two sentences are two requests.
  if (/[.!?]\s+[A-Z]/.test(text)) return undefined
  if (PRAISE.test(text) || ASSISTANT_VOICE.test(text) || NOTHING.test(text)) return undefined
  return text
}

const MAX_WORDS = 12
// One word is a prompt only when it is a whole instruction by itself.
const ONE_WORD = new Set(['yes', 'no', 'ok', 'continue', 'commit', 'push', 'deploy'])
const PRAISE = /^(thanks|thank you|thx|looks good|lgtm|perfect|great|nice|awesome|sounds good)\b/i
const ASSISTANT_VOICE = /^(let me|i'll|here's|here is|here are)\b/i
const NOTHING = /^(nothing|none|silence|\(silence\)|no suggestion)\.?$/i
