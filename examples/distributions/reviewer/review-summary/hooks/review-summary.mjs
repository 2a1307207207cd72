// Stop hook: reads the session transcript (`transcript_path` on stdin) and reports what the review
// looked at — the files it read and the searches it ran — as a systemMessage the user sees.
import { readFileSync } from 'node:fs'
import { isAbsolute, relative } from 'node:path'

const input = JSON.parse(readFileSync(0, 'utf8'))
const cwd = typeof input.cwd === 'string' ? input.cwd : process.cwd()
/** A path inside the project as the user would type it; others as they are. */
const shown = (path) => {
  const rel = isAbsolute(path) ? relative(cwd, path) : path
  return rel && !rel.startsWith('..') ? rel : path
}

let lines = []
try {
  lines = readFileSync(input.transcript_path, 'utf8').split('\n')
} catch {
  // No transcript (a session that does not keep one): the summary says nothing was looked at.
}
const read = new Set()
const searched = new Set()
for (const line of lines) {
  let entry
  try {
    entry = JSON.parse(line)
  } catch {
    continue // an empty or torn line
  }
  if (entry?.type !== 'assistant' || !Array.isArray(entry.message?.content)) continue
  for (const block of entry.message.content) {
    if (block?.type !== 'tool_use') continue
    const i = block.input ?? {}
    const where = typeof i.path === 'string' ? ` in ${shown(i.path)}` : ''
    if (block.name === 'Read' && typeof i.file_path === 'string') read.add(shown(i.file_path))
    else if (block.name === 'Grep' && typeof i.pattern === 'string') searched.add(`grep "${i.pattern}"${where}${typeof i.glob === 'string' ? ` (${i.glob})` : ''}`)
    else if (block.name === 'Glob' && typeof i.pattern === 'string') searched.add(`glob ${i.pattern}${where}`)
  }
}

const list = (set) => [...set].join(', ')
const looked = [
  read.size > 0 ? `read ${list(read)}` : 'read no files',
  searched.size > 0 ? `searched with ${list(searched)}` : 'ran no searches',
]
process.stdout.write(JSON.stringify({ systemMessage: `Review finished: the reviewer ${looked.join(' and ')}; nothing was changed.` }))
