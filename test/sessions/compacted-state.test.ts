import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import edit from '../../mods/edit/index.js'
import read from '../../mods/read/index.js'
import todo from '../../mods/todo/index.js'
import { big, bigTool, boundaries, compactionWith, summary } from '../compaction/helpers.js'
import { fileOf, readLines, run, tempCwd } from './helpers.js'

const opts = { thresholdTokens: 5_000, keepRecentFraction: 0, microcompact: false }
const use = (name: string, input: Record<string, unknown>) => ({ reply: [{ tool_use: { name, input } }] })

/** The todo list as the todo mod holds it when the first turn starts. */
function todoProbe(seen: unknown[]) {
  return defineMod({
    name: 'todo-probe',
    uses: { todo: 'optional' },
    register(on) {
      on('turn.start', ($, e, next) => {
        seen.push($.capability.use('todo')?.todos())
        return next(e)
      })
    },
  })
}

// TodoWrite is offered only with the task list turned off (and, on the default model, the checklist opted in).
const legacyTodo = { env: { CLAUDE_CODE_ENABLE_TASKS: '0', CLAUDE_CODE_ENABLE_TODO_TOOLS: '1' } }

describe('state a compaction takes out of the conversation survives a resume', () => {
  it('the todo list and the files read come back from the compact-summary line', async () => {
    const cwd = await tempCwd()
    const file = join(cwd, 'notes.txt')
    await writeFile(file, 'alpha\nbeta\n')
    const todos = [
      { content: 'Read the notes', status: 'completed', activeForm: 'Reading the notes' },
      { content: 'Fix the notes', status: 'in_progress', activeForm: 'Fixing the notes' },
    ]
    const mods = [bigTool, todo, read, edit, compactionWith(opts)]
    const first = await run([
      use('TodoWrite', { todos }),
      use('Read', { file_path: file }),
      big('r1', 24_000),
      summary('SUMMARY'),
      { reply: 'first done' },
    ], 'go', cwd, legacyTodo, mods)
    expect(first.result.result).toBe('first done')
    expect(boundaries(first.messages)).toHaveLength(1)
    // The compacted history no longer holds the TodoWrite or the Read call.
    expect(JSON.stringify(first.history)).not.toContain('"tool_use"')
    const summaryLine = readLines(fileOf(cwd, first.sessionId)).find((l) => l.isCompactSummary)!
    expect(summaryLine.todos).toEqual(todos)
    expect(summaryLine.readFiles).toEqual([{ path: file, whole: true }])

    const seen: unknown[] = []
    const second = await run([
      use('Edit', { file_path: file, old_string: 'beta', new_string: 'gamma' }),
      { reply: 'edited' },
    ], 'next', cwd, { resume: first.sessionId }, [...mods, todoProbe(seen)])
    expect(second.result.result).toBe('edited')
    expect(seen[0]).toEqual(todos)
    // Edit needs the file read in this session: the carried read counts.
    const result = second.requests[1]!.body.messages.at(-1).content[0]
    expect(result.is_error).toBeUndefined()
    expect(await readFile(file, 'utf8')).toBe('alpha\ngamma\n')
  })
})
