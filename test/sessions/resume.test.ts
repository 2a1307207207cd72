import { spawn } from 'node:child_process'
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { isModloopError } from '../../core/errors.js'
import { defineMod } from '../../core/mod/define.js'
import { lockPathOf } from '../../mods/transcripts/store/paths.js'
import readMod from '../../mods/read/index.js'
import editMod from '../../mods/edit/index.js'
import commandsMod from '../../mods/commands/index.js'
import { withOptions } from '../helpers/with-options.js'
import todoMod from '../../mods/todo/index.js'
import { assertNoDanglingToolUse } from '../loop/helpers.js'
import { fileOf, readLines, rebuilt, run, tempCwd } from './helpers.js'

let cwd: string
beforeAll(async () => {
  cwd = await tempCwd()
})

const echo = (text: string) => ({ tool_use: { name: 'Echo', input: { text } } })
const toolTurn = [{ reply: [{ text: 'echoing' }, echo('one')], usage: { input_tokens: 1000, output_tokens: 100 } }, { reply: 'first answer', usage: { input_tokens: 1000, output_tokens: 100 } }]

describe('resume', () => {
  it('sends the old history with the new prompt, keeps the id, appends to the same file and carries the cost on', async () => {
    const first = await run(toolTurn, 'first prompt', cwd)
    const before = readLines(fileOf(cwd, first.sessionId))
    const second = await run([{ reply: 'second answer', usage: { input_tokens: 1000, output_tokens: 100 } }], 'second prompt', cwd, { resume: first.sessionId })
    expect(second.error).toBeUndefined()
    expect(second.result).toMatchObject({ subtype: 'success', result: 'second answer', session_id: first.sessionId })
    const sent = (second.requests[0]!.body as any).messages
    expect(sent.slice(0, -1)).toEqual(JSON.parse(JSON.stringify(first.history)))
    expect(sent.at(-1).content[0].text).toBe('second prompt')
    expect(second.starts).toEqual([{ source: 'resume', sessionId: first.sessionId, transcriptPath: fileOf(cwd, first.sessionId) }])
    const after = readLines(fileOf(cwd, first.sessionId))
    expect(after.slice(0, before.length)).toEqual(before)
    expect(after[before.length]!.parentUuid).toBe(before.at(-1)!.uuid)
    expect(second.result.total_cost_usd).toBeCloseTo(first.result.total_cost_usd * 1.5, 9)
    expect(second.result.modelUsage['claude-opus-5-5']!.inputTokens).toBe(3000)
    expect(rebuilt(fileOf(cwd, first.sessionId)).messages).toEqual(JSON.parse(JSON.stringify(second.history)))
  })

  it('a response\'s empty text block is left out of the resumed history as it is of the live one', async () => {
    const first = await run([{ reply: [{ text: '' }, echo('one')] }, { reply: 'first answer' }], 'first prompt', cwd)
    const second = await run([{ reply: 'second answer' }], 'second prompt', cwd, { resume: first.sessionId })
    const sent = (second.requests[0]!.body as any).messages
    expect(sent[1].content.map((b: any) => b.type)).toEqual(['tool_use'])
    expect(sent.slice(0, -1)).toEqual(JSON.parse(JSON.stringify(first.history)))
  })

  it('takes a session by the title it was given, whatever the case; a title two sessions share is refused, naming both', async () => {
    const dir = await tempCwd()
    const titled = (id: string, title: string) => appendFileSync(fileOf(dir, id), `${JSON.stringify({ type: 'custom-title', customTitle: title, sessionId: id })}\n`)
    const login = await run([{ reply: 'a' }], 'fix the login test', dir)
    const notes = await run([{ reply: 'b' }], 'write the notes', dir)
    titled(login.sessionId, 'Login flake')
    titled(notes.sessionId, 'release')
    const again = await run([{ reply: 'c' }], 'again', dir, { resume: 'login FLAKE' })
    expect(again.error).toBeUndefined()
    expect(again.result.session_id).toBe(login.sessionId)
    expect((again.requests[0]!.body as any).messages.map((m: any) => m.content[0].text)).toEqual(['fix the login test', 'a', 'again'])

    titled(notes.sessionId, 'Login flake')
    const both = await run([], 'x', dir, { resume: 'Login flake' })
    expect(isModloopError(both.error, 'MODLOOP_ERR_SESSION')).toBe(true)
    expect((both.error as Error).message).toContain(login.sessionId)
    expect((both.error as Error).message).toContain(notes.sessionId)
    expect(isModloopError((await run([], 'x', dir, { resume: 'release' })).error, 'MODLOOP_ERR_SESSION')).toBe(true)
  })

  it('/rename gives the session the title a resume then takes it by, without a model call', async () => {
    const dir = await tempCwd()
    const first = await run([{ reply: 'a' }], 'fix the login test', dir)
    const renamed = await run([], '/rename Login Flake', dir, { resume: first.sessionId })
    expect(renamed.result.result).toBe('Session renamed to: Login Flake')
    expect(renamed.requests).toHaveLength(0)
    expect(readLines(fileOf(dir, first.sessionId)).filter((l) => l.type === 'custom-title').map((l) => l.customTitle)).toEqual(['Login Flake'])
    const again = await run([{ reply: 'c' }], 'again', dir, { resume: 'login flake' })
    expect(again.result.session_id).toBe(first.sessionId)
    expect((await run([], '/rename', dir, { resume: first.sessionId })).result.result).toBe('Usage: /rename <name>')
  })

  it('continue takes the most recently active session of the directory', async () => {
    const dir = await tempCwd()
    await run([{ reply: 'a' }], 'older', dir)
    await new Promise((r) => setTimeout(r, 20))
    const latest = await run([{ reply: 'b' }], 'newer', dir)
    const cont = await run([{ reply: 'c' }], 'again', dir, { continue: true })
    expect(cont.result.session_id).toBe(latest.sessionId)
    expect((cont.requests[0]!.body as any).messages.map((m: any) => m.content[0].text)).toEqual(['newer', 'b', 'again'])
    expect(cont.starts[0]!.source).toBe('resume')
  })

  it('continue in a directory with no session yet starts one, which the next continue carries on; a fork of nothing is refused', async () => {
    const dir = await tempCwd()
    const first = await run([{ reply: 'a' }], 'start', dir, { continue: true })
    expect(first.error).toBeUndefined()
    expect(first.starts[0]!.source).toBe('startup')
    const next = await run([{ reply: 'b' }], 'go on', dir, { continue: true })
    expect(next.result.session_id).toBe(first.sessionId)
    expect((next.requests[0]!.body as any).messages.map((m: any) => m.content[0].text)).toEqual(['start', 'a', 'go on'])
    const empty = await tempCwd()
    expect(isModloopError((await run([], 'x', empty, { continue: true, forkSession: true })).error, 'MODLOOP_ERR_SESSION')).toBe(true)
  })

  it('fork copies the history into a new session and leaves the original untouched', async () => {
    const first = await run(toolTurn, 'to fork', cwd)
    const original = readFileSync(fileOf(cwd, first.sessionId), 'utf8')
    const fork = await run([{ reply: 'forked answer' }], 'on the fork', cwd, { resume: first.sessionId, forkSession: true })
    expect(fork.result.session_id).not.toBe(first.sessionId)
    expect(fork.starts[0]).toMatchObject({ source: 'fork', sessionId: fork.result.session_id, transcriptPath: fileOf(cwd, fork.result.session_id) })
    expect(readFileSync(fileOf(cwd, first.sessionId), 'utf8')).toBe(original)
    const copied = readLines(fileOf(cwd, fork.result.session_id))
    const old = readLines(fileOf(cwd, first.sessionId))
    expect(copied.slice(0, old.length).map((l) => ({ ...l, sessionId: 'x' }))).toEqual(old.map((l) => ({ ...l, sessionId: 'x' })))
    expect(copied.every((l) => l.sessionId === fork.result.session_id)).toBe(true)
    expect((fork.requests[0]!.body as any).messages.slice(0, -1)).toEqual(JSON.parse(JSON.stringify(first.history)))
    expect(rebuilt(fileOf(cwd, fork.result.session_id)).messages).toEqual(JSON.parse(JSON.stringify(fork.history)))
  })

  it('fork with a fixed session id', async () => {
    const first = await run([{ reply: 'x' }], 'p', cwd)
    const id = '0b7c3a53-7d8f-4f5e-9a56-1f2e3d4c5b6a'
    const fork = await run([{ reply: 'y' }], 'q', cwd, { resume: first.sessionId, forkSession: true, sessionId: id })
    expect(fork.result.session_id).toBe(id)
  })

  it('resumeSessionAt cuts the history at a message; a cut after a tool call answers it with an error', async () => {
    const first = await run(toolTurn, 'cut me', cwd)
    const lines = readLines(fileOf(cwd, first.sessionId))
    const text = lines.find((l) => l.type === 'assistant' && l.message.content[0].type === 'text')!
    const atText = await run([{ reply: 'from the text' }], 'next', cwd, { resume: first.sessionId, resumeSessionAt: text.uuid })
    const sent = (atText.requests[0]!.body as any).messages
    expect(sent.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(sent[1].content).toEqual([expect.objectContaining({ type: 'text', text: 'echoing' })])
    // The resumed turn branched from the cut: the rebuilt chain is what that turn sent, plus its answer.
    expect(rebuilt(fileOf(cwd, first.sessionId)).messages.slice(0, 3)).toEqual(sent)

    const again = readLines(fileOf(cwd, first.sessionId))
    const toolUse = again.find((l) => l.type === 'assistant' && l.message.content[0].type === 'tool_use')!
    const atTool = await run([{ reply: 'after the cut' }], 'go on', cwd, { resume: first.sessionId, resumeSessionAt: toolUse.uuid })
    assertNoDanglingToolUse(atTool.requests)
    const body = (atTool.requests[0]!.body as any).messages
    expect(body[2].content[0]).toMatchObject({ type: 'tool_result', is_error: true })
  })

  it('maxBudgetUsd counts only the spend since this query, though total_cost_usd carries on', async () => {
    const first = await run(toolTurn, 'spend', cwd)
    const budget = first.result.total_cost_usd * 0.9
    const second = await run([{ reply: 'cheap', usage: { input_tokens: 10, output_tokens: 1 } }], 'more', cwd, { resume: first.sessionId, maxBudgetUsd: budget })
    expect(second.result).toMatchObject({ subtype: 'success', result: 'cheap' })
    expect(second.result.total_cost_usd).toBeGreaterThan(first.result.total_cost_usd)
  })

  it('restores the model unless one is given', async () => {
    const first = await run([{ reply: 'x' }], 'p', cwd, { model: 'claude-haiku-4-5' })
    const second = await run([{ reply: 'y', expect: { model: 'claude-haiku-4-5' } }], 'q', cwd, { resume: first.sessionId })
    expect(second.result.subtype).toBe('success')
    const third = await run([{ reply: 'z', expect: { model: 'claude-opus-4-6' } }], 'r', cwd, { resume: first.sessionId, model: 'claude-opus-4-6' })
    expect(third.result.subtype).toBe('success')
  })

  it('counts the lines edits changed on from where the resumed session stopped', async () => {
    const dir = await tempCwd()
    const file = join(dir, 'notes.txt')
    await writeFile(file, 'alpha\nbeta\n')
    const mods = [readMod, editMod, withOptions(commandsMod, { home: dir })]
    const first = await run([
      { reply: [{ tool_use: { name: 'Read', input: { file_path: file } } }] },
      { reply: [{ tool_use: { name: 'Edit', input: { file_path: file, old_string: 'beta', new_string: 'gamma\ndelta' } } }] },
      { reply: 'edited' },
    ], 'edit it', dir, {}, mods)
    expect(first.result.subtype).toBe('success')
    const second = await run([], '/cost', dir, { resume: first.sessionId }, mods)
    expect(second.result.result).toMatch(/^Total code changes: {4}2 lines added, 1 line removed$/m)
  })

  it('restores the todo list and what was read', async () => {
    const dir = await tempCwd()
    const file = join(dir, 'notes.txt')
    const other = join(dir, 'other.txt')
    await writeFile(file, 'alpha\nbeta\n')
    await writeFile(other, 'one\n')
    const todos = [{ content: 'Fix it', status: 'in_progress', activeForm: 'Fixing it' }]
    const mods = [readMod, editMod, todoMod]
    const first = await run([
      { reply: [{ tool_use: { name: 'Read', input: { file_path: file } } }, { tool_use: { name: 'Read', input: { file_path: other } } }, { tool_use: { name: 'TodoWrite', input: { todos } } }] },
      { reply: 'read' },
    ], 'read it', dir, legacyTodo, mods)
    expect(first.result.subtype).toBe('success')
    // Changed after the session was last active: the restored read is stale.
    await writeFile(other, 'two\n')
    const later = new Date(Date.now() + 5_000)
    await utimes(other, later, later)
    let restored: unknown
    const peek = defineMod({ name: 'peek', uses: { todo: 'optional' }, register: (on) => on('prompt.submit', ($, e, next) => { restored = $.capability.use('todo')?.todos(); return next(e) }) })
    const second = await run([
      { reply: [{ tool_use: { name: 'Edit', input: { file_path: file, old_string: 'beta', new_string: 'gamma' } } }, { tool_use: { name: 'Edit', input: { file_path: other, old_string: 'one', new_string: 'three' } } }] },
      { reply: 'edited' },
    ], 'edit it', dir, { resume: first.sessionId }, [...mods, peek])
    expect(restored).toEqual(todos)
    const results = second.messages.filter((m: any) => m.type === 'user').map((m: any) => m.message.content[0])
    expect(results[0]).not.toHaveProperty('is_error')
    expect(readFileSync(file, 'utf8')).toBe('alpha\ngamma\n')
    expect(results[1]).toMatchObject({ is_error: true, content: expect.stringContaining('changed on disk') })
  })
})

// TodoWrite is offered only with the task list turned off (and, on the default model, the checklist opted in).
const legacyTodo = { env: { CLAUDE_CODE_ENABLE_TASKS: '0', CLAUDE_CODE_ENABLE_TODO_TOOLS: '1' } }

describe('resume refusals', () => {
  const code = async (p: Promise<{ error?: unknown }>) => {
    const { error } = await p
    return isModloopError(error) ? error.code : String(error)
  }

  it('an unknown id, resume with continue, a fixed id without fork, an existing id', async () => {
    expect(await code(run([], 'x', cwd, { resume: '6f1d7b0e-1111-4222-8333-944455556666' }))).toBe('MODLOOP_ERR_SESSION')
    const first = await run([{ reply: 'x' }], 'p', cwd)
    expect(await code(run([], 'x', cwd, { resume: first.sessionId, continue: true }))).toBe('MODLOOP_ERR_USAGE')
    expect(await code(run([], 'x', cwd, { resume: first.sessionId, sessionId: '0b7c3a53-7d8f-4f5e-9a56-000000000001' }))).toBe('MODLOOP_ERR_USAGE')
    expect(await code(run([], 'x', cwd, { sessionId: first.sessionId }))).toBe('MODLOOP_ERR_USAGE')
    expect(await code(run([], 'x', cwd, { forkSession: true }))).toBe('MODLOOP_ERR_USAGE')
  })

  it('a session another live process writes is refused, naming the session and the pid; a dead holder\'s lock is taken over', async () => {
    const first = await run([{ reply: 'x' }], 'p', cwd)
    const lock = lockPathOf(fileOf(cwd, first.sessionId))
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)'])
    try {
      writeFileSync(lock, String(child.pid))
      const refused = await run([{ reply: 'y' }], 'q', cwd, { resume: first.sessionId })
      expect(isModloopError(refused.error, 'MODLOOP_ERR_SESSION_LOCKED')).toBe(true)
      expect(String((refused.error as Error).message)).toContain(first.sessionId)
      expect(String((refused.error as Error).message)).toContain(`process ${child.pid}`)
      // A fork does not write the original, so it is not refused.
      const fork = await run([{ reply: 'f' }], 'q', cwd, { resume: first.sessionId, forkSession: true })
      expect(fork.result.subtype).toBe('success')
    } finally {
      child.kill('SIGKILL')
      await new Promise((r) => child.once('exit', r))
    }
    const taken = await run([{ reply: 'z' }], 'q', cwd, { resume: first.sessionId })
    expect(taken.result).toMatchObject({ subtype: 'success', session_id: first.sessionId })
  })
})
