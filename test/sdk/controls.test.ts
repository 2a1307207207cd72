import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import type { SessionSource } from '../../core/events/types.js'
import bashMod from '../../mods/bash/index.js'
import commandsMod from '../../mods/commands/index.js'
import transcripts from '../../mods/transcripts/index.js'
import { toolsMod } from '../loop/helpers.js'
import { permissionsWith, sandbox, type Sandbox } from '../permissions/helpers.js'
import { fileOf, readLines, tempCwd } from '../sessions/helpers.js'
import type { Query } from '../../runtime/query.js'
import { conversation } from './conversation.js'
import { query } from '../../entry.js'
import { startFakeAnthropic } from '../../testing/fake-anthropic.js'

let box: Sandbox
beforeAll(async () => { box = await sandbox() })
afterAll(() => box.remove())

/** Records session.start sources and session.end reasons, and fires `onTool` when a tool call starts. */
function watcher(onTool?: (tool: string) => void) {
  const starts: { source: SessionSource; sessionId: string }[] = []
  const ends: { reason: string; sessionId: string }[] = []
  const mod = defineMod({
    name: 'watcher',
    register(on) {
      on('session.start', (_$, e, next) => { starts.push({ source: e.source, sessionId: e.sessionId }); return next(e) })
      on('session.end', (_$, e, next) => { ends.push({ reason: e.reason, sessionId: e.sessionId }); return next(e) })
      on('tool.call', (_$, e, next) => { onTool?.(e.tool); return next(e) })
    },
  })
  return { mod, starts, ends }
}

describe('Query controls in a streaming-input session', () => {
  it('interrupt() from another task stops a running Bash command; the next input still works', async () => {
    const cwd = await tempCwd('modloop-controls-')
    let q: Pick<Query, 'interrupt'> | undefined
    const w = watcher((tool) => { if (tool === 'Bash') setTimeout(() => void q!.interrupt(), 150) })
    const c = await conversation([
      { reply: [{ tool_use: { name: 'Bash', input: { command: 'sleep 60 && echo late > late.txt' } } }] },
      { reply: 'still here' },
    ], { cwd, mods: [bashMod, w.mod] })
    q = c.q
    try {
      // The command would sleep 60 s, past the test's own timeout: the turn ending at all is the interrupt at work.
      const first = await c.say('run the slow thing')
      expect(first).toMatchObject({ subtype: 'error_during_execution', terminal_reason: 'aborted_tools', is_error: true })
      const second = await c.say('are you there?')
      expect(second).toMatchObject({ subtype: 'success', result: 'still here' })
      // The interrupted call was answered in the history the next request sent.
      const sent = (c.server.requests[1]!.body as any).messages
      expect(sent[2].content[0]).toMatchObject({ type: 'tool_result', is_error: true })
    } finally {
      await c.end()
    }
    await new Promise((r) => setTimeout(r, 200))
    expect(existsSync(join(cwd, 'late.txt'))).toBe(false)
  })

  it('interrupt() ends a turn whose canUseTool never answers: the approver hears of it by its signal, the next input still works', async () => {
    const touch = { reply: [{ tool_use: { name: 'Touch', input: { label: 'x' } } }] }
    let q: Pick<Query, 'interrupt'> | undefined
    let heardAbort = false
    const c = await conversation([touch, { reply: 'still here' }], {
      cwd: box.project, mods: [toolsMod(), permissionsWith({ home: box.home, trustStore: join(box.root, 'trust.json') })], env: { MODLOOP_HOME: box.modloopHome },
      // An approver that never settles (a person who walked away); the interrupt is asked for once it is asking.
      canUseTool: (_tool, _input, { signal }) => new Promise(() => {
        signal.addEventListener('abort', () => { heardAbort = true })
        void q!.interrupt()
      }),
    })
    q = c.q
    try {
      const first = await c.say('touch it')
      // The ask may come while the response still streams (the call starts early): either abort reason.
      expect(first).toMatchObject({ subtype: 'error_during_execution', terminal_reason: expect.stringMatching(/^aborted_(streaming|tools)$/) })
      expect(heardAbort).toBe(true)
      const second = await c.say('are you there?')
      expect(second).toMatchObject({ subtype: 'success', result: 'still here' })
      expect((c.server.requests[1]!.body as any).messages.at(-2).content[0]).toMatchObject({ type: 'tool_result', is_error: true })
    } finally {
      await c.end()
    }
  })

  it('setPermissionMode() changes what the permission check decides for the calls that follow', async () => {
    const touch = { reply: [{ tool_use: { name: 'Touch', input: { label: 'x' } } }] }
    const c = await conversation([touch, { reply: 'refused' }, touch, { reply: 'done' }], {
      cwd: box.project, mods: [toolsMod(), permissionsWith({ home: box.home, trustStore: join(box.root, 'trust.json') })], env: { MODLOOP_HOME: box.modloopHome },
      allowDangerouslySkipPermissions: true,
    })
    try {
      const first = await c.say('touch it')
      expect(first.permission_denials).toHaveLength(1)
      await expect(c.q.setPermissionMode('yolo')).rejects.toThrow(/"yolo" is not a permission mode/)
      await expect(c.q.setPermissionMode('bypassPermissions')).resolves.toEqual({ mode: 'bypassPermissions' })
      const second = await c.say('touch it again')
      expect(second.permission_denials).toHaveLength(0)
      const results = c.seen.filter((m) => m.type === 'user' && (m as any).message.content[0]?.type === 'tool_result') as any[]
      expect(results.map((r) => r.message.content[0].is_error === true)).toEqual([true, false])
      const inits = c.seen.filter((m) => m.type === 'system' && (m as any).subtype === 'init') as any[]
      expect(inits.map((i) => i.permissionMode)).toEqual(['default', 'bypassPermissions'])
    } finally {
      await c.end()
    }
  })

  it('setPermissionMode("bypassPermissions") is refused unless the session was started with allowDangerouslySkipPermissions', async () => {
    const owner = () => permissionsWith({ home: box.home, trustStore: join(box.root, 'trust.json') })
    const c = await conversation([{ reply: 'one' }, { reply: 'two' }], { cwd: box.project, mods: [toolsMod(), owner()], env: { MODLOOP_HOME: box.modloopHome } })
    try {
      await c.say('hello')
      await expect(c.q.setPermissionMode('bypassPermissions')).rejects.toThrow(/"bypassPermissions" needs the session to be started with allowDangerouslySkipPermissions: true/)
      await expect(c.q.setPermissionMode('acceptEdits')).resolves.toEqual({ mode: 'acceptEdits' })
      await c.say('again')
      const inits = c.seen.filter((m) => m.type === 'system' && (m as any).subtype === 'init') as any[]
      expect(inits.map((i) => i.permissionMode)).toEqual(['default', 'acceptEdits'])
    } finally {
      await c.end()
    }
    // A session started in bypassPermissions (the CLI's --dangerously-skip-permissions) may go back to it.
    const d = await conversation([{ reply: 'one' }], { cwd: box.project, mods: [toolsMod(), owner()], env: { MODLOOP_HOME: box.modloopHome }, permissionMode: 'bypassPermissions' })
    try {
      await d.say('hello')
      await d.q.setPermissionMode('default')
      await expect(d.q.setPermissionMode('bypassPermissions')).resolves.toEqual({ mode: 'bypassPermissions' })
    } finally {
      await d.end()
    }
  })

  it('supportedCommands(), mcpServerStatus() and getContextUsage() report the session', async () => {
    const fakeMcp = defineMod({ name: 'mcp', provides: ['serverStatus'], register: (on, _o, $) => { $.capability.provide('serverStatus', () => [{ name: 'docs', status: 'connected' }]) } })
    const c = await conversation([{ reply: 'hi', usage: { input_tokens: 1200, output_tokens: 30, cache_read_input_tokens: 800 } }], { model: 'claude-sonnet-4-5', mods: [commandsMod, fakeMcp] })
    try {
      // Before any message: the session opens for it.
      expect(await c.q.getContextUsage()).toMatchObject({ model: 'claude-sonnet-4-5', maxTokens: 200_000 })
      await c.say('hello')
      const commands = await c.q.supportedCommands()
      expect(commands.map((x) => x.name)).toEqual(expect.arrayContaining(['help', 'clear']))
      expect(commands[0]).toEqual({ name: expect.any(String), description: expect.any(String), argumentHint: expect.any(String) })
      expect(await c.q.mcpServerStatus()).toEqual([{ name: 'docs', status: 'connected' }])
      const usage = await c.q.getContextUsage()
      expect(usage).toMatchObject({ model: 'claude-sonnet-4-5', totalTokens: 2030, maxTokens: 200_000, percentage: 1, isEstimate: false })
      expect(usage.categories.at(-1)).toEqual({ name: 'Free space', tokens: 200_000 - 2030 })
    } finally {
      await c.end()
    }
  })

  it('getContextUsage() keeps the last answered request\'s figure when a later request fails', async () => {
    const c = await conversation([
      { reply: 'hi', usage: { input_tokens: 1200, output_tokens: 30, cache_read_input_tokens: 800 } },
      { error: { status: 400, message: 'bad request' } },
    ], { model: 'claude-sonnet-4-5', mods: [] })
    try {
      await c.say('hello')
      await c.say('again')
      expect(await c.q.getContextUsage()).toMatchObject({ totalTokens: 2030, isEstimate: false })
    } finally {
      await c.end()
    }
  })

  it('controls work before the stream is read, as the Agent SDK\'s do: setModel applies to the first request; close() alone ends the session', async () => {
    const fakeMcp = defineMod({ name: 'mcp', provides: ['serverStatus'], register: (on, _o, $) => { $.capability.provide('serverStatus', () => [{ name: 'docs', status: 'connected' }]) } })
    const server = await startFakeAnthropic({ script: [{ reply: 'from haiku', expect: { model: 'claude-haiku-4-5' } }] })
    const env = { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 't' }
    try {
      const q = query({ prompt: 'hi', options: { bare: true, mods: [commandsMod, fakeMcp], env } })
      expect(await q.mcpServerStatus()).toEqual([{ name: 'docs', status: 'connected' }])
      expect((await q.supportedCommands()).map((c) => c.name)).toContain('help')
      await q.setModel('claude-haiku-4-5')
      const messages = []
      for await (const m of q) messages.push(m)
      expect(messages.at(-1)).toMatchObject({ type: 'result', result: 'from haiku' })

      const w = watcher()
      const idle = query({ prompt: 'never sent', options: { bare: true, mods: [commandsMod, w.mod], env } })
      await idle.supportedCommands()
      expect(w.starts).toHaveLength(1)
      await idle.close()
      expect(w.ends).toEqual([{ reason: 'other', sessionId: w.starts[0]!.sessionId }])
      expect(server.requests).toHaveLength(1)
    } finally {
      await server.close()
    }
  })

  it('close() ends a session that waits for input, and session.end runs', async () => {
    const w = watcher()
    const c = await conversation([{ reply: 'one' }], { mods: [w.mod] })
    await c.say('first')
    await c.q.close()
    await c.end()
    expect(w.ends).toEqual([{ reason: 'other', sessionId: w.starts[0]!.sessionId }])
  })

  it('/clear starts a new conversation under a new id: no history, SessionStart source clear', async () => {
    const cwd = await tempCwd('modloop-clear-')
    const w = watcher()
    const c = await conversation([{ reply: 'remembered' }, { reply: 'fresh start' }], { cwd, mods: [commandsMod, transcripts, w.mod] })
    try {
      const first = await c.say('remember this')
      const cleared = await c.say('/clear')
      expect(cleared.result).toMatch(/Started a new conversation/)
      expect(cleared.session_id).not.toBe(first.session_id)
      // The stream says so before anything of the new conversation (the SDK's conversation_reset).
      const reset = c.seen.findIndex((m) => m.type === 'conversation_reset')
      expect(c.seen[reset]).toMatchObject({ type: 'conversation_reset', trigger: 'clear', session_id: first.session_id, new_conversation_id: cleared.session_id })
      expect(reset).toBeGreaterThan(c.seen.indexOf(first))
      expect(reset).toBeLessThan(c.seen.indexOf(cleared))
      const third = await c.say('what did I say?')
      expect(third.session_id).toBe(cleared.session_id)
      // The cost starts again from zero, as Claude Code's /clear resets it.
      expect(first.total_cost_usd).toBeGreaterThan(0)
      expect(cleared.total_cost_usd).toBe(0)
      expect(third.total_cost_usd).toBeCloseTo(third.modelUsage[Object.keys(third.modelUsage)[0]!]!.costUSD, 10)
      expect(Object.keys(third.modelUsage)).toHaveLength(1)
      const sent = (c.server.requests[1]!.body as any).messages
      // Only the /clear itself is left of the history, as context before the prompt.
      expect(sent).toHaveLength(2)
      expect(sent[0].content.map((b: any) => b.text).join('')).toContain('<command-name>/clear</command-name>')
      expect(JSON.stringify(sent)).not.toContain('remember this')
      expect(sent[1].content[0].text).toBe('what did I say?')
      expect(w.starts.map((s) => s.source)).toEqual(['startup', 'clear'])
      expect(w.starts[1]!.sessionId).toBe(cleared.session_id)
      expect(w.ends[0]).toEqual({ reason: 'clear', sessionId: first.session_id })
      // Each conversation has its own transcript.
      expect(readLines(fileOf(cwd, first.session_id)).some((l) => JSON.stringify(l).includes('remember this'))).toBe(true)
      expect(readLines(fileOf(cwd, cleared.session_id)).some((l) => JSON.stringify(l).includes('remember this'))).toBe(false)
    } finally {
      await c.end()
    }
  })
})
