import { readFile } from 'node:fs/promises'
import type { ModApi } from '../../core/mod/api.js'

// A heading such as "## Compact Instructions" or "# Summary instructions".
const HEADING = /^(#{1,6})\s+(?:compact|summary)\s+instructions\s*#*\s*$/i

/** The sections of a Markdown text under a "Compact Instructions" or "Summary instructions" heading. */
export function instructionSections(text: string): string[] {
  const lines = text.split(/\r?\n/)
  const out: string[] = []
  for (let i = 0; i < lines.length; i++) {
    const level = HEADING.exec(lines[i]!)?.[1]?.length
    if (level === undefined) continue
    const body: string[] = []
    for (i++; i < lines.length; i++) {
      const other = /^(#{1,6})\s/.exec(lines[i]!)?.[1]?.length
      if (other !== undefined && other <= level) { i--; break }
      body.push(lines[i]!)
    }
    const section = body.join('\n').trim()
    if (section) out.push(section)
  }
  return out
}

/**
 * What the memory files loaded at session start say about summaries (Claude Code honours their
 * "Compact Instructions" sections). Read from disk and passed to the summarizer on their own: the
 * conversation it reads cuts long texts, and a long memory file's last section would be lost.
 */
export async function memoryInstructions($: ModApi): Promise<string | undefined> {
  const loaded = $.capability.use('memory')?.loaded()
  if (!loaded) return undefined
  const sections: string[] = []
  for (const path of new Set(loaded.filter((l) => l.load_reason === 'session_start').map((l) => l.file_path))) {
    const text = await readFile(path, 'utf8').catch(() => '')
    sections.push(...instructionSections(text))
  }
  return sections.length > 0 ? sections.join('\n\n') : undefined
}
