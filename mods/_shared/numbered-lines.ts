/** `cat -n` layout: the line number right-aligned in six columns, a tab, then the line. */
export function numberLine(n: number, line: string): string {
  return `${String(n).padStart(6)}\t${line}`
}

export function numberLines(lines: readonly string[], firstLine: number): string {
  return lines.map((line, i) => numberLine(firstLine + i, line)).join('\n')
}

/** Splits text into lines the way `cat -n` shows them: a final line break opens no extra line. */
export function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split(/\r?\n/)
  if (lines.at(-1) === '') lines.pop()
  return lines
}
