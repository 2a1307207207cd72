import type { ModDefinition } from '../../core/mod/define.js'
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SDKMessage, SDKUserMessage } from '../../core/loop/messages.js'
import { query } from '../../entry.js'
import bash from '../../mods/bash/index.js'
import memory from '../../mods/memory/index.js'
import readMod from '../../mods/read/index.js'
import transcripts from '../../mods/transcripts/index.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { fileOf, readLines, rebuilt, run, tempCwd } from '../sessions/helpers.js'
import { encodeCwd } from '../../mods/transcripts/store/paths.js'
import { defineMod } from '../../core/mod/define.js'
import { ModHost } from '../../core/mod/host.js'
import { big, bigTool, boundaries, compactionWith, firstUserText, isSummaryRequest, mainRequests, summary } from './helpers.js'

const opts = { thresholdTokens: 5_000, keepRecentFraction: 0, microcompact: false }

/** A streaming-input session: each prompt is sent once the previous one has its result. */
async function conversation(script: unknown, prompts: string[], mods: unknown[], readMs = 0) {
  const server = await startFakeAnthropic({ script })
  const messages: SDKMessage[] = []
  const times: number[] = []
  async function* input(): AsyncGenerator<SDKUserMessage> {
    for (const text of prompts) {
      const results = messages.filter((m) => m.type === 'result').length
      yield { type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null }
      while (messages.filter((m) => m.type === 'result').length === results) await new Promise((r) => setTimeout(r, 5))
    }
  }
  try {
    for await (const m of query({ prompt: input(), options: { bare: true, mods: mods as never, env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 't' } } })) {
      messages.push(m)
      times.push(performance.now())
      // A consumer that takes its time over each message.
      if (readMs > 0) await new Promise((r) => setTimeout(r, readMs))
    }
  } finally {
    await server.close()
  }
  return { messages, times, requests: server.requests, results: messages.filter((m) => m.type === 'result') as Extract<SDKMessage, { type: 'result' }>[] }
}

describe('/compact', () => {
  it('compacts on request, passing the focus to the summarizer', async () => {
    const seen: { trigger: string; instructions?: string }[] = []
    const watch = defineMod({ name: 'watch', register: (on) => on('session.compact', (_$, e, next) => { seen.push({ trigger: e.trigger, instructions: e.instructions }); return next(e) }) })
    const c = await conversation([{ reply: 'hi there' }, summary('SUMMARY-MANUAL'), { reply: 'after answer' }], ['hello', '/compact keep the API notes', 'after'], [bigTool, watch, compactionWith(opts)])
    expect(c.results.map((r) => r.result)).toEqual(['hi there', expect.stringMatching(/^Compacted the conversation \(\d+ -> \d+ tokens\)\.$/), 'after answer'])
    expect(seen).toEqual([{ trigger: 'manual', instructions: 'keep the API notes' }])
    const summarizer = c.requests.find(isSummaryRequest)!
    expect(JSON.stringify(summarizer.body.messages)).toContain('Additional instructions for this summary: keep the API notes')
    const b = boundaries(c.messages)
    expect(b).toHaveLength(1)
    expect(b[0]!.compact_metadata.trigger).toBe('manual')
    // The boundary is shown before the command's result.
    expect(c.messages.indexOf(b[0]!)).toBeLessThan(c.messages.indexOf(c.results[1]!))
    const last = mainRequests(c.requests).at(-1)! as { body: any }
    expect(firstUserText(last)).toContain('SUMMARY-MANUAL')
    expect(JSON.stringify(last.body.messages)).not.toContain('hi there')
    expect(JSON.stringify(last.body.messages.at(-1))).toContain('after')
  })

  it('leaves out the analysis a summary drafted first, and its <summary> tags', async () => {
    const reply = '<analysis>\nSCRATCH NOTES\n</analysis>\n\n<summary>\n1. Primary request: SUMMARY-BODY\n</summary>'
    const c = await conversation([{ reply: 'hi there' }, summary(reply), { reply: 'after answer' }], ['hello', '/compact', 'after'], [bigTool, compactionWith(opts)])
    const opening = firstUserText(mainRequests(c.requests).at(-1)! as { body: any })
    expect(opening).toContain('<summary>\n1. Primary request: SUMMARY-BODY\n</summary>')
    expect(opening).not.toContain('SCRATCH NOTES')
    expect(opening.match(/<summary>/g)).toHaveLength(1)
  })

  it('gives /compact the time the summary gets: a model call past the default budget does not make it a prompt', async () => {
    // /compact waits for the summary inside its command.run handler; with the default budget a
    // summary taking over 10 s timed that handler out and "/compact" went to the model as a prompt.
    const host = new ModHost()
    expect(await host.add(compactionWith(opts))).toBe(true)
    host.bind()
    const budgetOf = (event: 'command.run' | 'session.compact') => host.bus.stack(event).find((s) => s.mod === 'compaction')!.budgetMs
    expect(budgetOf('command.run')).toBeGreaterThanOrEqual(budgetOf('session.compact'))
  })

  it('shows its compacting status while the summary is written, after the turn\'s init', async () => {
    const DELAY = 800
    const c = await conversation([{ reply: 'hi there' }, { ...summary('SUMMARY'), delayMs: DELAY }], ['hello', '/compact'], [bigTool, compactionWith(opts)])
    const second = c.messages.findIndex((m, i) => m.type === 'system' && m.subtype === 'init' && i > c.messages.indexOf(c.results[0]!))
    const compacting = c.messages.findIndex((m) => m.type === 'system' && m.subtype === 'status' && (m as { status?: unknown }).status === 'compacting')
    const boundary = c.messages.findIndex((m) => m.type === 'system' && m.subtype === 'compact_boundary')
    expect(second).toBeGreaterThan(-1)
    expect([second < compacting, compacting < boundary]).toEqual([true, true])
    // Yielded before the delayed summary came back, not together with the boundary.
    expect(c.times[boundary]! - c.times[compacting]!).toBeGreaterThan(DELAY * 0.8)
  })

  it('shows its boundary before its result to a consumer that reads slowly', async () => {
    const c = await conversation([{ reply: 'hi there' }, { ...summary('SUMMARY'), delayMs: 150 }], ['hello', '/compact'], [bigTool, compactionWith(opts)], 100)
    const kinds = c.messages.slice(c.messages.indexOf(c.results[0]!) + 1).map((m) => (m.type === 'system' ? `${m.subtype}${m.subtype === 'status' ? `:${String((m as any).compact_result ?? (m as any).status)}` : ''}` : m.type))
    expect(kinds).toEqual(['init', 'status:compacting', 'compact_boundary', 'status:success', 'result'])
  })

  it('has nothing to compact in an empty conversation', async () => {
    const c = await conversation([], ['/compact'], [bigTool, compactionWith(opts)])
    expect(c.results[0]!.result).toBe('Not compacted: nothing to compact: the conversation is empty')
    expect(c.requests).toHaveLength(0)
  })
})

describe('the summary request', () => {
  it('asks for no more output than the model can give', async () => {
    const cwd = await tempCwd()
    const r = await run([big('r1'), big('r2'), big('r3'), summary('SUMMARY'), { reply: 'done' }], 'go', cwd, { model: 'claude-3-haiku-20240307' }, [bigTool, compactionWith(opts)])
    expect(r.result.result).toBe('done')
    const asked = r.requests.filter(isSummaryRequest).map((q) => (q.body as { max_tokens: number }).max_tokens)
    expect(asked).toEqual([4_096])
  })
})

describe('Compact Instructions in CLAUDE.md', () => {
  it('reach the summarizer, even past the length the conversation it reads keeps of a text', async () => {
    const cwd = await tempCwd()
    const filler = Array.from({ length: 220 }, (_, i) => `- rule ${i}: keep the code tidy and the tests fast.`).join('\n')
    writeFileSync(join(cwd, 'CLAUDE.md'), `# Rules\n\n${filler}\n\n## Compact Instructions\nAlways name the PINEAPPLE module.\n\n## Style\nTabs.\n`)
    const r = await run([big('r1', 12_000), summary('SUMMARY'), { reply: 'done' }], 'go', cwd, {}, [memory, bigTool, compactionWith(opts)])
    expect(r.result.result).toBe('done')
    // The instruction after the conversation (CLAUDE.md itself is in the conversation it follows).
    const instruction = r.requests.find(isSummaryRequest)!.body.messages.at(-1).content.at(-1).text
    expect(instruction).toContain('Additional instructions for this summary: Always name the PINEAPPLE module.')
    expect(instruction).not.toContain('Tabs.')
  })
})

describe('memory after compaction', () => {
  it('reattaches the files CLAUDE.md imports with CLAUDE.md itself', async () => {
    const cwd = await tempCwd()
    writeFileSync(join(cwd, 'CLAUDE.md'), 'TOP-RULES, and see @more.md\n')
    writeFileSync(join(cwd, 'more.md'), 'IMPORTED-RULES\n')
    const r = await run([big('r1', 30_000), summary('SUMMARY'), { reply: 'done' }], 'go', cwd, {}, [memory, bigTool, compactionWith(opts)])
    expect(r.result.result).toBe('done')
    const first = JSON.stringify(mainRequests(r.requests).at(-1)!.body.messages[0])
    expect(first).toContain('SUMMARY')
    expect(first).toContain('TOP-RULES')
    expect(first).toContain('IMPORTED-RULES')
  })

  it('reattaches the auto memory index, read from disk again and cut as at start', async () => {
    const cwd = await tempCwd()
    const modloopHome = join(cwd, '.home')
    const dir = join(modloopHome, 'projects', encodeCwd(cwd), 'memory')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'MEMORY.md'), '- [Old](old.md) - AT-START\n')
    // The model updates its index during the session: the compacted conversation shows the update.
    const update = { reply: [{ tool_use: { name: 'Echo', input: { text: 'x' } } }] }
    const writer = defineMod({ name: 'writer', register(on) {
      on('tool.call', async ($, e, next) => {
        writeFileSync(join(dir, 'MEMORY.md'), '- [New](new.md) - UPDATED-INDEX\n')
        return next(e)
      })
    } })
    const r = await run([update, big('r1', 30_000), summary('SUMMARY'), { reply: 'done' }], 'go', cwd, { env: { MODLOOP_HOME: modloopHome } }, [memory, writer, bigTool, compactionWith(opts)])
    expect(r.result.result).toBe('done')
    expect(JSON.stringify(mainRequests(r.requests)[0]!.body.messages[0])).toContain('AT-START')
    const first = JSON.stringify(mainRequests(r.requests).at(-1)!.body.messages[0])
    expect(first).toContain('SUMMARY')
    expect(first).toContain(`Contents of ${join(dir, 'MEMORY.md')} (your auto memory's index):`)
    expect(first).toContain('UPDATED-INDEX')
  })

  it('loads a nested CLAUDE.md again when a file it covers is read after the compaction dropped it', async () => {
    const cwd = await tempCwd()
    mkdirSync(join(cwd, 'sub'))
    writeFileSync(join(cwd, 'sub/CLAUDE.md'), 'NESTED-RULES\n')
    writeFileSync(join(cwd, 'sub/f.txt'), 'hello\n')
    const read = { reply: [{ tool_use: { name: 'Read', input: { file_path: join(cwd, 'sub/f.txt') } } }] }
    const r = await run([read, big('r1', 30_000), summary('SUMMARY'), read, { reply: 'done' }], 'go', cwd, {}, [readMod, memory, bigTool, compactionWith(opts)])
    expect(r.result.result).toBe('done')
    const last = mainRequests(r.requests).at(-1)!.body
    expect(JSON.stringify(last.messages)).not.toContain('<r1>')
    expect(JSON.stringify(last.messages.at(-1))).toContain('NESTED-RULES')
  })
})

describe('the transcript keeps everything', () => {
  it('records the boundary and the new history; a resume starts from the boundary', async () => {
    const cwd = await tempCwd()
    const first = await run([big('r1'), big('r2'), big('r3'), summary('SUMMARY-RESUME'), { reply: 'first done' }], 'go', cwd, {}, [bigTool, compactionWith(opts)])
    expect(first.result.result).toBe('first done')
    const path = fileOf(cwd, first.sessionId)
    const lines = readLines(path)
    // Everything before the compaction is still on disk.
    expect(readFileSync(path, 'utf8')).toContain('<r1>')
    const at = lines.findIndex((l) => l.type === 'system' && l.subtype === 'compact_boundary')
    expect(at).toBeGreaterThan(0)
    expect(lines[at]!.compact_metadata.trigger).toBe('auto')
    expect(JSON.stringify(lines[at + 1]!.message)).toContain('SUMMARY-RESUME')
    // The summary line is marked as such, and it is the only one.
    expect(lines[at + 1]).toMatchObject({ type: 'user', isCompactSummary: true, parentUuid: lines[at]!.uuid })
    expect(lines.filter((l) => l.isCompactSummary)).toHaveLength(1)
    // The rebuilt history is exactly what the loop had.
    expect(rebuilt(path).messages).toEqual(first.history)

    const second = await run([{ reply: 'resumed' }], 'next', cwd, { resume: first.sessionId }, [bigTool, compactionWith(opts)])
    expect(second.result.result).toBe('resumed')
    const sent = (second.requests[0]!.body as any).messages
    expect(firstUserText(second.requests[0]! as { body: any })).toContain('SUMMARY-RESUME')
    expect(JSON.stringify(sent)).not.toContain('<r1>')
    expect(sent.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user'])
  })

  it('counts the tokens compactions dropped across the session, a resume included', async () => {
    const cwd = await tempCwd()
    const first = await run([big('r1'), big('r2'), big('r3'), summary('SUMMARY-1'), { reply: 'first done' }], 'go', cwd, {}, [bigTool, compactionWith(opts)])
    const [one] = boundaries(first.messages).map((b) => b.compact_metadata as typeof b.compact_metadata & { cumulative_dropped_tokens: number })
    expect(one!.cumulative_dropped_tokens).toBe(one!.pre_tokens - one!.post_tokens)
    expect(one!.cumulative_dropped_tokens).toBeGreaterThan(0)

    const second = await run([big('r4'), big('r5'), big('r6'), summary('SUMMARY-2'), { reply: 'second done' }], 'more', cwd, { resume: first.sessionId }, [bigTool, compactionWith(opts)])
    const [two] = boundaries(second.messages).map((b) => b.compact_metadata as typeof b.compact_metadata & { cumulative_dropped_tokens: number })
    expect(two!.cumulative_dropped_tokens).toBe(one!.cumulative_dropped_tokens + two!.pre_tokens - two!.post_tokens)
  })

  it('microcompaction clears old tool results from what is sent, not from the transcript', async () => {
    const cwd = await tempCwd()
    const micro = { thresholdTokens: 100_000, microcompact: { atFraction: 0.02, keepRecent: 1, tools: ['Big'] } }
    const r = await run([big('r1', 4_000), big('r2', 4_000), big('r3', 4_000), { reply: 'done' }], 'go', cwd, {}, [bigTool, compactionWith(micro)])
    expect(r.result.result).toBe('done')
    const lastSent = JSON.stringify(r.requests.at(-1)!.body.messages)
    expect(lastSent).not.toContain('<r1>')
    expect(lastSent).not.toContain('<r2>')
    expect(lastSent).toContain('<r3>')
    expect(lastSent.match(/\[Old tool result content cleared\]/g)).toHaveLength(2)
    expect(boundaries(r.messages)).toHaveLength(0)
    const stored = readFileSync(fileOf(cwd, r.sessionId), 'utf8')
    expect(stored).toContain('<r1>')
    expect(stored).toContain('<r2>')
  })
})

describe('tool-result budgeting', () => {
  it('moves a result over its limit to a file and sends a preview with the path', async () => {
    const cwd = await tempCwd()
    const r = await run([big('huge', 60_000), big('small', 10_000), { reply: 'done' }], 'go', cwd, {}, [bigTool, compactionWith()])
    expect(r.result.result).toBe('done')
    const sent = r.requests.at(-1)!.body.messages
    const results = sent.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).filter((b: any) => b.type === 'tool_result')
    expect(results).toHaveLength(2)
    expect(results[0].content).toContain('<persisted-output>')
    expect(results[0].content).toContain('Output too large (60,000 characters, over the 50,000-character limit)')
    const dir = join(fileOf(cwd, r.sessionId).replace(/\.jsonl$/, ''), 'tool-results')
    const file = join(dir, `${results[0].tool_use_id}.txt`)
    expect(results[0].content).toContain(file)
    expect(readFileSync(file, 'utf8')).toHaveLength(60_000)
    expect(results[0].content.length).toBeLessThan(3_000)
    // Under the limit: sent whole, no file.
    expect(results[1].content).toHaveLength(10_000)
    expect(readdirSync(dir)).toEqual([`${results[0].tool_use_id}.txt`])
  })

  it('Bash has its own lower limit', async () => {
    const cwd = await tempCwd()
    const command = `node -e "process.stdout.write('y'.repeat(40000))"`
    const bashWide = { ...bash, options: undefined, register: (on, _o, $) => bash.register(on, bash.options!.parse({ maxOutputChars: 100_000 }), $) } as ModDefinition
    const r = await run([{ reply: [{ tool_use: { name: 'Bash', input: { command } } }] }, { reply: 'done' }], 'go', cwd, {}, [bashWide, compactionWith()])
    const block = r.requests.at(-1)!.body.messages.at(-1).content[0]
    expect(block.content).toContain('over the 30,000-character limit')
    const file = /saved to: (\S+\.txt)/.exec(block.content)![1]!
    expect(existsSync(file)).toBe(true)
    expect(readFileSync(file, 'utf8')).toContain('y'.repeat(40_000))
  })

  it('leaves results of tools that page themselves alone', async () => {
    const cwd = await tempCwd()
    const r = await run([big('huge', 60_000), { reply: 'done' }], 'go', cwd, {}, [bigTool, compactionWith({ toolResults: { never: ['Big'] } })])
    expect(JSON.stringify(r.requests.at(-1)!.body.messages)).not.toContain('persisted-output')
  })
})
