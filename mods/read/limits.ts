// Read's output cap on text files, and what it says when a read runs past it (spec §7, the Read row).
// A whole file of any size gets its first page and a PARTIAL view notice, as the spec has it; the
// byte limit Claude Code puts on a whole-file read (256KB, an error) would cost the model a round
// to ask again for the page it is given here.

/** Read counts tokens as characters over four: an estimate, free, where counting by the API would cost a request. */
export const CHARS_PER_TOKEN = 4

export const tokensOf = (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN)

const LARGE = 'Passing allow_large: true reads past this cap, as far as the context window has room; do so only when all of the file is really needed.'
const NO_ROOM = 'Even allow_large cannot help: the context window has no room left for that much this turn.'

/** An explicit range past the cap is refused: the model asked for those lines, and half of them would mislead. */
export const tooManyTokens = (tokens: number, cap: number, large: boolean): string =>
  `File content (${tokens} tokens) is more than Read returns at once (${cap} tokens). Ask for fewer lines, or find what you need with Grep. ${large ? NO_ROOM : LARGE}`

export interface Page { path: string; start: number; end: number; total: number; askedEnd: number; tokens: number; cap: number; large: boolean }

/** What follows a whole-file read cut short by the cap: where the page stops and how to read on. */
export const partialView = (p: Page): string =>
  `[Truncated: PARTIAL view - ${p.path}: showing lines ${p.start}-${p.end} of ${p.total}; lines ${p.start}-${p.askedEnd} come to about ${p.tokens} tokens, over the cap of ${p.cap}. ` +
  `Read on with offset=${p.end + 1} limit=${p.end - p.start + 1}, or Grep for the part you need. ${p.large ? NO_ROOM : LARGE} ` +
  `Lines past ${p.end} are unseen: if the answer could be among them, read them before answering.]`
