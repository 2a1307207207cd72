// marked-terminal ships no types (and @types/marked-terminal pins an older marked); this is the part we use.
declare module 'marked-terminal' {
  import type { MarkedExtension } from 'marked'
  export function markedTerminal(options?: Record<string, unknown>, highlightOptions?: Record<string, unknown>): MarkedExtension
}
