import { spawn } from 'node:child_process'
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { defineMod } from '../../core/mod/define.js'
import { query } from '../../entry.js'
import { UNANSWERED } from '../../mods/transcripts/store/rebuild.js'
import transcripts from '../../mods/transcripts/index.js'
import { big, bigTool, compactionWith, summary } from '../compaction/helpers.js'
import { assertAnswered, fileOf, historySpy, readLines, rebuilt, run, tempCwd } from './helpers.js'
import { builtCli } from '../helpers/built-cli.js'

const root = fileURLToPath(new URL('../../', import.meta.url))

const echo = (text: string) => ({ tool_use: { name: 'Echo', input: { text } } })

describe('a transcript cut by a crash', () => {
  it('a torn last line is ignored with a warning, and cut off before the resumed session appends', async () => {
    const cwd = await tempCwd()
    const first = await run([{ reply: [echo('a')] }, { reply: 'done' }], 'p', cwd)
    const path = fileOf(cwd, first.sessionId)
    appendFileSync(path, '{"parentUuid":"x","type":"assistant","mess')
    const back = rebuilt(path)
    expect(back.warnings).toEqual([expect.stringContaining('ignored a torn last line')])
    expect(back.messages).toEqual(JSON.parse(JSON.stringify(first.history)))
    const logged: string[] = []
    const second = await run([{ reply: 'again' }], 'q', cwd, { resume: first.sessionId, log: (l) => logged.push(l) })
    expect(second.result.subtype).toBe('success')
    expect(logged).toEqual([expect.stringContaining('torn last line')])
    const after = rebuilt(path)
    expect(after.warnings).toEqual([])
    expect(readFileSync(path, 'utf8')).not.toContain('"mess\n')
    expect(after.messages).toEqual(JSON.parse(JSON.stringify(second.history)))
  })

  it('a whole last line that only lost its newline is kept, not cut off as torn', async () => {
    const cwd = await tempCwd()
    const first = await run([{ reply: 'x' }], 'p', cwd)
    const path = fileOf(cwd, first.sessionId)
    // A script or an editor rewrote the file without the final newline.
    writeFileSync(path, readFileSync(path, 'utf8').trimEnd())
    const last = readLines(path).at(-1)!
    const second = await run([{ reply: 'y' }], 'q', cwd, { resume: first.sessionId })
    expect(second.result.subtype).toBe('success')
    expect(readLines(path).map((l) => l.uuid)).toContain(last.uuid)
    const after = rebuilt(path)
    expect(after.warnings).toEqual([])
    expect(after.chain.map((e) => e.uuid)).toContain(last.uuid)
    expect(after.chain.every((e, i) => i === 0 || e.parentUuid === after.chain[i - 1]!.uuid)).toBe(true)
  })

  it('a damaged line in the middle is skipped with its line number', async () => {
    const cwd = await tempCwd()
    const first = await run([{ reply: 'x' }], 'p', cwd)
    const path = fileOf(cwd, first.sessionId)
    const text = readFileSync(path, 'utf8').split('\n')
    writeFileSync(path, [text[0], 'not json', ...text.slice(1)].join('\n'))
    expect(rebuilt(path).warnings).toEqual([expect.stringContaining('line 2 is not valid JSON')])
  })

  it('a user line whose message is not one is skipped naming the field; a line of another kind may hold any message', async () => {
    const cwd = await tempCwd()
    const first = await run([{ reply: 'x' }], 'p', cwd)
    const path = fileOf(cwd, first.sessionId)
    const text = readFileSync(path, 'utf8').split('\n')
    // Claude Code writes its request blobs so: a system message under a kind of line rebuilding never reads.
    const blob = JSON.stringify({ type: 'api-request-blob', sessionId: first.sessionId, message: { role: 'system', content: [{ type: 'text', text: 'env' }] } })
    const broken = JSON.stringify({ type: 'user', uuid: 'u-broken', parentUuid: null, message: { role: 'system', content: 'no' } })
    writeFileSync(path, [text[0], blob, broken, ...text.slice(1)].join('\n'))
    const back = rebuilt(path)
    expect(back.warnings).toEqual([expect.stringContaining('line 3 is not a transcript entry (message.role:')])
    expect(back.messages.length).toBeGreaterThan(0)
  })

  it('a damaged line in the middle loses that line only, and the resumed request stays valid', async () => {
    const cwd = await tempCwd()
    const first = await run([{ reply: [echo('a')] }, { reply: [echo('b')] }, { reply: 'done' }], 'p', cwd)
    const path = fileOf(cwd, first.sessionId)
    const lines = readFileSync(path, 'utf8').split('\n')
    // Hand-edited garbage where the second response's tool call was: its result has no call now.
    const at = lines.findIndex((l) => l.includes('"type":"tool_use"') && l.includes('toolu_1_1'))
    lines[at] = '{garbage'
    writeFileSync(path, lines.join('\n'))
    const logged: string[] = []
    const resumed = await run([{ reply: 'resumed' }], 'next', cwd, { resume: first.sessionId, log: (l) => logged.push(l) })
    expect(resumed.result.subtype).toBe('success')
    expect(logged).toEqual(expect.arrayContaining([expect.stringContaining(`line ${at + 1} is not valid JSON`), expect.stringContaining('linked to the line written before')]))
    const sent = (resumed.requests[0]!.body as any).messages as MessageParam[]
    // Everything before the damaged line is still there: the first prompt and the first round.
    expect((sent[0]!.content as any)[0].text).toBe('p')
    expect(JSON.stringify(sent)).toContain('toolu_0_1')
    expect(JSON.stringify(sent)).not.toContain('"tool_use_id":"toolu_1_1"')
    assertAnswered(sent)
    // The lost response held only the call: its result, joined to the round before, is dropped.
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user'])
  })

  it('a response cut after its thinking block is not sent back as a thinking-only message', async () => {
    const cwd = await tempCwd()
    const first = await run([{ reply: [{ thinking: 'hmm', signature: 'sig-1' }, echo('a')] }, { reply: [{ thinking: 'so', signature: 'sig-2' }, { text: 'done' }] }], 'p', cwd)
    const path = fileOf(cwd, first.sessionId)
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean)
    // Killed while the second response streamed: its thinking line was written, its text was not.
    writeFileSync(path, `${lines.slice(0, lines.findIndex((l) => l.includes('sig-2')) + 1).join('\n')}\n`)
    const resumed = await run([{ reply: 'resumed' }], 'next', cwd, { resume: first.sessionId })
    const sent = (resumed.requests[0]!.body as any).messages as MessageParam[]
    expect(JSON.stringify(sent)).not.toContain('sig-2')
    // The first response keeps its thinking: it ended on its tool call.
    expect(JSON.stringify(sent)).toContain('sig-1')
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'user'])
    assertAnswered(sent)
  })

  it('a compaction cut after its boundary line, before its summary line, replaced nothing', async () => {
    const cwd = await tempCwd()
    const mods = [bigTool, compactionWith({ thresholdTokens: 5_000, keepRecentFraction: 0, microcompact: false })]
    const first = await run([big('r1', 24_000), summary('SUMMARY'), { reply: 'first done' }], 'go', cwd, {}, mods)
    const path = fileOf(cwd, first.sessionId)
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean)
    // Killed right after the boundary was written: the summary and the kept messages never were.
    writeFileSync(path, `${lines.slice(0, lines.findIndex((l) => l.includes('"compact_boundary"')) + 1).join('\n')}\n`)
    const resumed = await run([{ reply: 'resumed' }], 'next', cwd, { resume: first.sessionId })
    const sent = JSON.stringify((resumed.requests[0]!.body as any).messages)
    expect(sent).toContain('"text":"go"')
    expect(sent).toContain('<r1>')
    // Resumed again, the boundary that the resumed session went on after still replaced nothing.
    const again = await run([{ reply: 'again' }], 'last', cwd, { resume: first.sessionId })
    const sentAgain = (again.requests[0]!.body as any).messages as MessageParam[]
    expect(JSON.stringify(sentAgain)).toContain('<r1>')
    expect(JSON.stringify(sentAgain)).toContain('"text":"next"')
    assertAnswered(sentAgain)
  })

  it('tool calls without results are answered with an error: alone, or beside the results that arrived', async () => {
    const cwd = await tempCwd()
    const first = await run([{ reply: [echo('a'), echo('b')] }, { reply: 'done' }], 'p', cwd)
    const path = fileOf(cwd, first.sessionId)
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean)
    const kinds = lines.map((l) => JSON.parse(l)).map((l) => (l.type === 'user' && l.message.content[0].type === 'tool_result' ? 'result' : l.type))
    // Killed after the first tool result: the second tool_use has no answer.
    writeFileSync(path, `${lines.slice(0, kinds.indexOf('result') + 1).join('\n')}\n`)
    const partial = rebuilt(path)
    expect(partial.repaired).toBe(1)
    expect(partial.messages[2]!.content).toEqual([
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_0_1', content: 'a' }),
      { type: 'tool_result', tool_use_id: 'toolu_0_2', content: UNANSWERED, is_error: true },
    ])
    // Killed while the tools ran: both answered, in a message of their own before the next prompt.
    writeFileSync(path, `${lines.slice(0, kinds.indexOf('result')).join('\n')}\n`)
    const resumed = await run([{ reply: 'resumed', expect: { toolResults: 0 } }], 'next', cwd, { resume: first.sessionId })
    const sent = (resumed.requests[0]!.body as any).messages as MessageParam[]
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'user'])
    assertAnswered(sent)
    expect(rebuilt(path).messages).toEqual(JSON.parse(JSON.stringify(resumed.history)))
  })

  it('a finished call of a batch is in the transcript while a later call still runs, and a resume keeps it', async () => {
    const cwd = await tempCwd()
    let path = ''
    let cut: ReturnType<typeof rebuilt> | undefined
    // Hold runs until Mark's result has been recorded (before, results waited for the whole batch:
    // this test then hung), and reads the transcript as a process killed at that moment leaves it.
    let recorded!: () => void
    const markRecorded = new Promise<void>((resolve) => { recorded = resolve })
    const tools = defineMod({
      name: 'batch-tools',
      register(on) {
        on('session.start', async ($, e, next) => {
          path = e.transcriptPath
          await $.tool.register({ name: 'Mark', description: 'Marks', input: z.object({}), call: async () => ({ result: 'marked the file' }) })
          await $.tool.register({ name: 'Hold', description: 'Holds', input: z.object({}), call: async () => { await markRecorded; cut = rebuilt(path); return { result: 'held' } } })
          return next(e)
        })
        on('session.message', ($, e, next) => {
          if (JSON.stringify(e.message).includes('"tool_use_id":"toolu_0_1"')) recorded()
          return next(e)
        })
      },
    })
    const r = await run([{ reply: [{ tool_use: { name: 'Mark', input: {} } }, { tool_use: { name: 'Hold', input: {} } }] }, { reply: 'done' }], 'p', cwd, {}, [tools])
    expect(r.result?.subtype).toBe('success')
    expect(cut!.repaired).toBe(1)
    expect(cut!.messages.at(-1)!.content).toEqual([
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_0_1', content: 'marked the file' }),
      { type: 'tool_result', tool_use_id: 'toolu_0_2', content: UNANSWERED, is_error: true },
    ])
  })
})

/** A tool mod file for the CLI: Wait sleeps, and stops at an abort. */
const WAIT_TOOL = `import { z } from 'zod'
export function register(on) {
  on('session.start', async ($, e, next) => {
    await $.tool.register({ name: 'Wait', description: 'Wait ms', input: z.object({ ms: z.number() }), isReadOnly: true,
      call: (i) => new Promise((resolve) => setTimeout(() => resolve({ result: 'waited ' + i.ms }), i.ms)) })
    return next(e)
  })
}
`

function killScript() {
  const steps: unknown[] = []
  for (let i = 0; i < 5; i++) {
    steps.push({ reply: [{ text: `step ${i}: looking at the next part of the task` }, { tool_use: { name: 'Wait', input: { ms: 10 } } }, { tool_use: { name: 'Wait', input: { ms: 20 } } }], chunkDelayMs: 2 })
  }
  steps.push({ reply: 'all done', chunkDelayMs: 2 })
  return { steps }
}

interface Trial { sessionId?: string; acknowledged: string[] }

/** Runs the built CLI and SIGKILLs it after a random number of stream lines plus a random delay. */
function killedRun(cwd: string, seed: number): Promise<Trial> {
  const child = spawn(process.execPath, [builtCli(), '-p', 'do the task', '--script', 'script.json', '--output-format', 'stream-json'], {
    cwd, env: { ...process.env }, stdio: ['ignore', 'pipe', 'ignore'],
  })
  // Spread over the whole run (28 stream lines), then a few ms more to land between lines too.
  const mix = Math.imul(seed + 1, 2654435761) >>> 0
  const killAfter = 1 + (mix % 27)
  const extraMs = (mix >>> 8) % 15
  const trial: Trial = { acknowledged: [] }
  let buffered = ''
  let lines = 0
  let killing = false
  return new Promise((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString()
      let at: number
      while ((at = buffered.indexOf('\n')) !== -1) {
        const m = JSON.parse(buffered.slice(0, at))
        buffered = buffered.slice(at + 1)
        trial.sessionId ??= m.session_id
        if ((m.type === 'user' || m.type === 'assistant') && !killing) trial.acknowledged.push(m.uuid)
        if (++lines >= killAfter && !killing) {
          killing = true
          setTimeout(() => child.kill('SIGKILL'), extraMs)
        }
      }
    })
    child.once('exit', () => resolve(trial))
  })
}

/**
 * The transcript's lines as the kill left them. A kill during a write may leave the last line torn:
 * Linux stops a write to a file between pages once the process has a fatal signal pending. That
 * line's message never reached the caller (each line is written before its message is yielded),
 * and the resumed session cuts it off; any other line must parse.
 */
function linesBefore(path: string): Record<string, any>[] {
  const text = readFileSync(path, 'utf8')
  const lines = text.split('\n')
  const torn = !text.endsWith('\n') && lines.at(-1) !== '' ? lines.pop() : undefined
  if (torn !== undefined) { try { return [...lines.filter(Boolean).map((l) => JSON.parse(l)), JSON.parse(torn)] } catch { /* torn: left out */ } }
  return lines.filter(Boolean).map((l) => JSON.parse(l))
}

async function resumeAndCheck(cwd: string, trial: Trial): Promise<void> {
  if (!trial.sessionId) throw new Error('the CLI printed nothing before it was killed')
  const path = fileOf(cwd, trial.sessionId)
  // Killed right after the init message, before the prompt was recorded: nothing was acknowledged, nothing to resume.
  if (trial.acknowledged.length === 0 && !existsSync(path)) return
  const before = linesBefore(path)
  const uuids = new Set(before.map((l) => l.uuid))
  // Every message the caller saw was in the transcript before it saw it.
  for (const uuid of trial.acknowledged) expect(uuids.has(uuid)).toBe(true)
  const spy = historySpy()
  let startHistory: MessageParam[] = []
  const peek = defineMod({ name: 'peek', register: (on) => on('session.start', ($, e, next) => { startHistory = $.session.messages() as MessageParam[]; return next(e) }) })
  let result: { subtype: string; session_id: string } | undefined
  for await (const m of query({ prompt: 'carry on', options: { resume: trial.sessionId, cwd, bare: true, mods: [transcripts, spy.mod, peek], script: [{ reply: 'resumed' }], log: () => {} } })) {
    if (m.type === 'result') result = m
  }
  expect(result).toMatchObject({ subtype: 'success', session_id: trial.sessionId })
  // Killed between creating the file and writing its first line: an empty history resumes as one.
  if (before.length === 0) expect(startHistory).toEqual([])
  else expect(startHistory[0]?.role).toBe('user')
  assertAnswered(startHistory)
  startHistory.forEach((m, i) => { if (i > 0 && m.role === 'assistant') expect(startHistory[i - 1]!.role).toBe('user') })
  const after = rebuilt(path)
  expect(after.warnings).toEqual([])
  expect(after.messages).toEqual(JSON.parse(JSON.stringify(spy.history())))
}

describe('kill -9 mid-turn, then resume', () => {
  const built = existsSync(join(root, 'dist/bin/main.cjs'))

  it.runIf(built)('50 trials killed at random points all resume to a well-formed history', async () => {
    const cwd = await tempCwd('modloop-kill-')
    await writeFile(join(cwd, 'wait-tool.mjs'), WAIT_TOOL)
    await writeFile(join(cwd, 'modloop.config.json'), JSON.stringify({ mods: ['transcripts', './wait-tool.mjs'] }))
    await writeFile(join(cwd, 'script.json'), JSON.stringify(killScript()))
    const TRIALS = 50
    const PARALLEL = 4
    let next = 0
    const worker = async () => {
      while (next < TRIALS) {
        const seed = next++
        const trial = await killedRun(cwd, seed)
        await resumeAndCheck(cwd, trial)
      }
    }
    await Promise.all(Array.from({ length: PARALLEL }, worker))
  }, 60_000)
})
