import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import memory from '../../mods/memory/index.js'
import read from '../../mods/read/index.js'
import todo from '../../mods/todo/index.js'
import { autoThreshold } from '../../mods/compaction/threshold.js'
import { run, tempCwd } from '../sessions/helpers.js'
import { big, bigTool, compactionWith, mainRequests, summary } from './helpers.js'
import { pdf, png } from '../tools/media-files.js'
import { runScript } from '../loop/helpers.js'

const at = (env: Record<string, string> = {}, thresholdTokens?: number) => {
  const warnings: string[] = []
  const value = autoThreshold({ model: 'claude-sonnet-4-5', thresholdTokens, env: (n) => env[n], warn: (w) => warnings.push(w) })
  return { value, warnings }
}

describe('the auto threshold', () => {
  it('is the window minus reply room (at most 20,000) minus a 13,000 margin', () => {
    expect(at().value).toBe(200_000 - 20_000 - 13_000)
  })

  it('counts a million-token model as a 200K one under CLAUDE_CODE_DISABLE_1M_CONTEXT, in the threshold and the result', async () => {
    const opus = (env: Record<string, string>) => autoThreshold({ model: 'claude-opus-5-5', env: (n) => env[n], warn: () => {} })
    expect(opus({})).toBe(1_000_000 - 33_000)
    expect(opus({ CLAUDE_CODE_DISABLE_1M_CONTEXT: '1' })).toBe(167_000)
    const r = await runScript([{ reply: 'ok' }], 'go', { model: 'claude-opus-5-5', env: { CLAUDE_CODE_DISABLE_1M_CONTEXT: '1' } })
    expect(r.result.modelUsage['claude-opus-5-5']?.contextWindow).toBe(200_000)
  })

  it('follows the settings in order, and ignores bad values with a warning naming the variable', () => {
    expect(at({}, 9_000).value).toBe(9_000)
    expect(at({ MODLOOP_AUTOCOMPACT_TOKENS: '4000' }, 9_000).value).toBe(4_000)
    expect(at({ CLAUDE_CODE_AUTO_COMPACT_WINDOW: '150000' }).value).toBe(150_000 - 33_000)
    // The window never exceeds the model's own.
    expect(at({ CLAUDE_CODE_AUTO_COMPACT_WINDOW: '900000' }).value).toBe(167_000)
    // The percentage only lowers.
    expect(at({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50' }).value).toBe(100_000)
    expect(at({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '99' }).value).toBe(167_000)
    expect(at({ DISABLE_AUTO_COMPACT: '1' }).value).toBeUndefined()
    expect(at({ DISABLE_COMPACT: 'true' }, 9_000).value).toBeUndefined()
    const bad = at({ CLAUDE_CODE_AUTO_COMPACT_WINDOW: '5000', CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: 'half' })
    expect(bad.value).toBe(167_000)
    expect(bad.warnings).toEqual([
      'CLAUDE_CODE_AUTO_COMPACT_WINDOW=5000 is ignored: expected a whole number from 100,000 to 1,000,000',
      'CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=half is ignored: expected a whole number from 1 to 100',
    ])
  })
})

// TodoWrite is offered only with the task list turned off (and, on the default model, the checklist opted in).
const legacyTodo = { env: { CLAUDE_CODE_ENABLE_TASKS: '0', CLAUDE_CODE_ENABLE_TODO_TOOLS: '1' } }

describe('after compaction', () => {
  it('re-attaches memory, the task list and recently read files, read fresh from disk', async () => {
    const cwd = await tempCwd()
    writeFileSync(join(cwd, 'CLAUDE.md'), 'Always write tests first.\n')
    writeFileSync(join(cwd, 'notes.txt'), 'version one\n')
    const todos = [{ content: 'Write the parser', status: 'in_progress', activeForm: 'Writing the parser' }]
    const script = [
      { reply: [{ tool_use: { name: 'TodoWrite', input: { todos } } }] },
      { reply: [{ tool_use: { name: 'Read', input: { file_path: join(cwd, 'notes.txt') } } }] },
      big('r1'), big('r2'), summary('SUMMARY-REATTACH'), { reply: 'done' },
    ]
    const mem = { ...memory, register: (on: any, _o: any, $: any) => memory.register(on, memory.options!.parse({ home: cwd, managedPath: false }), $) }
    const r = await run(script, 'go', cwd, legacyTodo, [read, todo, mem, bigTool, compactionWith({ thresholdTokens: 4_000, keepRecentFraction: 0, microcompact: false })])
    expect(r.result.result).toBe('done')
    const after = mainRequests(r.requests).at(-1)!.body.messages
    expect(after).toHaveLength(1)
    const texts = after[0].content.map((b: any) => b.text)
    expect(texts[0]).toContain('SUMMARY-REATTACH')
    const rest = texts.slice(1).join('\n')
    expect(rest).toContain('Always write tests first.')
    expect(rest).toContain('- [in_progress] Write the parser')
    expect(rest).toContain(`A file read before compaction, as it is now: ${join(cwd, 'notes.txt')}`)
    expect(rest).toContain('version one')
    expect(texts.slice(1).every((t: string) => t.startsWith('<system-reminder>'))).toBe(true)
  })

  it('re-attaches no image or PDF that Read showed: their bytes are no text', async () => {
    const cwd = await tempCwd()
    writeFileSync(join(cwd, 'notes.txt'), 'version one\n')
    writeFileSync(join(cwd, 'red.png'), png(4, 3))
    writeFileSync(join(cwd, 'doc.pdf'), pdf(1))
    const readOf = (file: string) => ({ reply: [{ tool_use: { name: 'Read', input: { file_path: join(cwd, file) } } }] })
    const script = [readOf('notes.txt'), readOf('red.png'), readOf('doc.pdf'), big('r1'), big('r2'), summary('SUMMARY-PICTURES'), { reply: 'done' }]
    const r = await run(script, 'go', cwd, {}, [read, bigTool, compactionWith({ thresholdTokens: 4_000, keepRecentFraction: 0, microcompact: false })])
    expect(r.result.result).toBe('done')
    const rest = mainRequests(r.requests).at(-1)!.body.messages[0].content.slice(1).map((b: any) => b.text).join('\n')
    expect(rest).toContain(`A file read before compaction, as it is now: ${join(cwd, 'notes.txt')}`)
    expect(rest).not.toContain('red.png')
    expect(rest).not.toContain('doc.pdf')
  })
})
