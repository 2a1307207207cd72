import type { MarkedExtension } from 'marked'
import type { Paint } from './color.js'

type Render = (markdown: string, paint: Paint) => string

let loading: Promise<Render> | undefined
let loadedWidth = 0

/** marked + marked-terminal, imported on the first answer so start-up does not pay for them. */
async function renderer(width: number): Promise<Render> {
  if (!loading || loadedWidth !== width) {
    loadedWidth = width
    loading = (async () => {
      const [{ Marked }, { markedTerminal }, { default: chalk }] = await Promise.all([import('marked'), import('marked-terminal'), import('chalk')])
      // chalk guesses colour support from the environment (it turns colour off whenever CI is set);
      // the terminal UI has already decided, and marked-terminal styles through chalk's one instance.
      const level = Math.max(chalk.level, 1) as 1 | 2 | 3
      const marked = new Marked(markedTerminal({ width, reflowText: true, tab: 2, showSectionPrefix: false, emoji: false }), inlineInLists)
      // The paint comes with each call: the renderer is kept across calls, which may paint differently.
      return (md: string, paint: Paint) => {
        chalk.level = paint.on ? level : 0
        return paint.plain(String(marked.parse(md)))
      }
    })()
  }
  return loading
}

/**
 * marked (v13 on) hands a tight list item's text to the `text` renderer as a token whose inline
 * children (bold, code, links) marked-terminal prints raw; this renders those children. Any other
 * text token falls through (`false`) to marked-terminal.
 */
const inlineInLists: MarkedExtension = {
  renderer: {
    text(token) {
      return 'tokens' in token && token.tokens?.length ? this.parser.parseInline(token.tokens) : false
    },
  },
}

/** Renders one finished markdown block for the terminal; on a renderer failure the source stands. */
export async function renderMarkdown(markdown: string, width: number, paint: Paint): Promise<string> {
  try {
    const render = await renderer(Math.min(width, 100))
    return render(markdown, paint).replace(/\n+$/, '')
  } catch {
    return markdown.replace(/\n+$/, '')
  }
}

/**
 * Cuts streaming text into finished markdown blocks: a block ends at a blank line outside a
 * fenced code block. What follows the last boundary stays pending until more text or `flush`.
 */
export class MarkdownStream {
  private pending = ''

  /** Adds text; answers the blocks it completed. */
  push(text: string): string[] {
    this.pending += text
    const cut = lastBoundary(this.pending)
    if (cut <= 0) return []
    const done = this.pending.slice(0, cut)
    this.pending = this.pending.slice(cut).replace(/^\n+/, '')
    return done.trim() ? [done] : []
  }

  /** The unfinished tail, for a live preview. */
  get tail(): string {
    return this.pending
  }

  flush(): string | undefined {
    const rest = this.pending
    this.pending = ''
    return rest.trim() ? rest : undefined
  }
}

function lastBoundary(text: string): number {
  let inFence = false
  let boundary = -1
  let lineStart = 0
  const lines = text.split('\n')
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i]!
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence
      // A closed fence ends its block too.
      if (!inFence) boundary = lineStart + line.length + 1
    } else if (!inFence && line.trim() === '' && i > 0) {
      boundary = lineStart + line.length + 1
    }
    lineStart += line.length + 1
  }
  return boundary
}
