import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { RequestError, type ClientApp, type RequestPermissionRequest, type ToolCallContent } from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import { acpTestBed, chunks, errorCode, startAgent, type AgentProcess } from '../helpers/acp-agent.js'
import { builtModloop } from '../helpers/built-cli.js'
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js'
import { png } from '../tools/media-files.js'

let server: FakeAnthropic | undefined
let agentProcess: AgentProcess | undefined
const { dir, envFor } = acpTestBed('modloop-acp-', () => [agentProcess, server], () => { agentProcess = server = undefined })
const init = { protocolVersion: 1, clientCapabilities: {} }
const kinds = (a: AgentProcess) => a.updates.map((n) => n.update.sessionUpdate)
const lastUser = (s: FakeAnthropic) => JSON.stringify((s.requests.at(-1)!.body.messages as unknown[]).at(-1))

/**
 * An editor whose files are `buffers`: a read answers from them (noting its path in `reads`), one
 * they lack fails with `missing` (the SDK's not-found by default), and a write goes into them.
 */
function editorBuffers(buffers: Map<string, string>, o: { reads?: string[]; missing?: (path: string) => Error } = {}) {
  return (app: ClientApp) => app
    .onRequest('fs/read_text_file', ({ params }) => {
      o.reads?.push(params.path)
      const content = buffers.get(params.path)
      if (content === undefined) throw (o.missing ?? RequestError.resourceNotFound)(params.path)
      return { content }
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      buffers.set(params.path, params.content)
      return {}
    })
}

describe('modloop acp', () => {
  let savedSession = ''

  it('initialize, a new session, a prompt with a Bash call: ask, tool call and update, streamed answer, end_turn', async () => {
    server = await startFakeAnthropic({
      script: [
        { reply: [{ thinking: 'a shell will tell', signature: 's' }, { text: 'Running it.' }, { tool_use: { id: 'toolu_bash1', name: 'Bash', input: { command: 'touch made-by-acp && echo hello-acp' } } }] },
        { reply: 'It printed hello-acp.', expect: { toolResults: 1 } },
      ],
    })
    const asks: RequestPermissionRequest[] = []
    const a = agentProcess = startAgent([], {
      cwd: dir, env: envFor(server),
      setup: (app) => app.onRequest('session/request_permission', ({ params }) => {
        asks.push(params)
        return { outcome: { outcome: 'selected', optionId: params.options.find((o) => o.kind === 'allow_always')!.optionId } }
      }),
    })
    const hello = await a.agent.request('initialize', init)
    expect(hello).toMatchObject({
      protocolVersion: 1,
      agentCapabilities: { loadSession: true, promptCapabilities: { image: true, embeddedContext: true }, mcpCapabilities: { http: true, sse: true } },
      agentInfo: { name: 'modloop', version: expect.any(String) },
      authMethods: [{ id: 'anthropic-api-key' }],
    })
    expect(await a.agent.request('authenticate', { methodId: 'anthropic-api-key' })).toEqual({})

    const created = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
    savedSession = created.sessionId
    expect(created.modes?.currentModeId).toBe('default')
    expect(created.modes?.availableModes.map((m) => m.id)).toEqual(['default', 'acceptEdits', 'plan', 'dontAsk', 'auto'])

    const r = await a.agent.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'run it' }] })
    expect(r.stopReason).toBe('end_turn')
    expect(a.updates.every((n) => n.sessionId === created.sessionId)).toBe(true)
    expect(chunks(a.updates, 'agent_thought_chunk')).toBe('a shell will tell')
    expect(chunks(a.updates, 'agent_message_chunk')).toBe('Running it.It printed hello-acp.')
    // Text streams as deltas: more than one chunk for the answer.
    expect(kinds(a).filter((k) => k === 'agent_message_chunk').length).toBeGreaterThan(2)

    const call = a.updates.map((n) => n.update).find((u) => u.sessionUpdate === 'tool_call')!
    expect(call).toMatchObject({ toolCallId: 'toolu_bash1', title: 'touch made-by-acp && echo hello-acp', kind: 'execute', status: 'pending', rawInput: { command: 'touch made-by-acp && echo hello-acp' } })
    expect(asks).toHaveLength(1)
    expect(asks[0]!.toolCall).toMatchObject({ toolCallId: 'toolu_bash1', kind: 'execute' })
    expect(asks[0]!.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once'])
    const callUpdates = a.updates.map((n) => n.update).filter((u) => u.sessionUpdate === 'tool_call_update')
    expect(callUpdates.map((u) => u.status)).toEqual(['in_progress', 'completed'])
    expect(JSON.stringify(callUpdates[1]!.content)).toContain('hello-acp')
    // In order: the call, then its update, then the answer's text after it.
    const order = kinds(a)
    expect(order.indexOf('tool_call')).toBeLessThan(order.indexOf('tool_call_update'))
    expect(order).toContain('usage_update')
    expect(order).toContain('available_commands_update')
    // "Always" saved the rule as the terminal saves it: one per part that needed it (echo needs none).
    expect(JSON.parse(await readFile(join(dir, '.claude', 'settings.local.json'), 'utf8')).permissions.allow).toEqual(['Bash(touch made-by-acp)'])

    // Modes: set one, be told; a mode that is not offered is bad params.
    await a.agent.request('session/set_mode', { sessionId: created.sessionId, modeId: 'acceptEdits' })
    expect(a.updates.at(-1)!.update).toEqual({ sessionUpdate: 'current_mode_update', currentModeId: 'acceptEdits' })
    expect(await errorCode(a.agent.request('session/set_mode', { sessionId: created.sessionId, modeId: 'bypassPermissions' }))).toBe(-32602)
  })

  it('bad input gets the protocol\'s errors and the agent keeps serving; --max-turns ends a prompt max_turn_requests', async () => {
    server = await startFakeAnthropic({ script: [{ reply: [{ tool_use: { name: 'Glob', input: { pattern: '*.txt' } } }] }] })
    const a = agentProcess = startAgent(['--max-turns', '1'], { cwd: dir, env: envFor(server) })
    await a.agent.request('initialize', init)
    a.child.stdin.write('this is not json\n')
    expect(await errorCode(a.agent.request('no/such_method', {}))).toBe(-32601)
    expect(await errorCode(a.agent.request('session/prompt', { sessionId: 'no-such-session', prompt: [{ type: 'text', text: 'hi' }] }))).toBe(-32002)
    expect(await errorCode(a.agent.request('session/new', { cwd: 'relative/dir', mcpServers: [] }))).toBe(-32602)
    // A folder that is not there is refused up front, not a session whose every tool call fails.
    expect(await errorCode(a.agent.request('session/new', { cwd: join(dir, 'no-such-dir'), mcpServers: [] }))).toBe(-32602)
    expect(await errorCode(a.agent.request('session/load', { sessionId: '00000000-0000-4000-8000-000000000000', cwd: join(dir, 'no-such-dir'), mcpServers: [] }))).toBe(-32602)
    expect(await errorCode(a.agent.request('session/load', { sessionId: '00000000-0000-4000-8000-000000000000', cwd: dir, mcpServers: [] }))).toBe(-32002)
    expect(await errorCode(a.agent.request('authenticate', { methodId: 'nope' }))).toBe(-32602)
    // Still serving.
    const { sessionId } = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/)
    // A file link with a host names no local file: bad params, not an internal error.
    expect(await errorCode(a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'resource_link', uri: 'file://elsewhere/x.ts', name: 'x.ts' }] }))).toBe(-32602)
    expect((await a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'look around' }] })).stopReason).toBe('max_turn_requests')
  })

  it('session/new reports the mode the command line set, and set_mode works as soon as it is answered', async () => {
    server = await startFakeAnthropic({ script: [] })
    const a = agentProcess = startAgent(['--permission-mode', 'acceptEdits'], { cwd: dir, env: envFor(server) })
    await a.agent.request('initialize', init)
    const { sessionId, modes } = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
    expect(modes?.currentModeId).toBe('acceptEdits')
    // Sent at once, as an editor restoring its mode picker does: the session is ready for it.
    await a.agent.request('session/set_mode', { sessionId, modeId: 'plan' })
    const told = () => a.updates.map((n) => n.update).filter((u) => u.sessionUpdate === 'current_mode_update')
    while (told().length === 0) await new Promise((r) => setTimeout(r, 10))
    expect(told()).toEqual([{ sessionUpdate: 'current_mode_update', currentModeId: 'plan' }])
  })

  it('an ask the editor answers with an error denies the call, saying so once', async () => {
    server = await startFakeAnthropic({
      script: [
        { reply: [{ tool_use: { id: 'toolu_asked', name: 'Bash', input: { command: 'touch never-asked-well' } } }] },
        { reply: 'Not run.', expect: { toolResults: 1 } },
      ],
    })
    const a = agentProcess = startAgent([], {
      cwd: dir, env: envFor(server),
      // A plain error, as an editor's handler throws one: the SDK answers "Internal error" with the cause in its data.
      setup: (app) => app.onRequest('session/request_permission', () => { throw new Error('the dialog broke') }),
    })
    await a.agent.request('initialize', init)
    const { sessionId } = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
    expect((await a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'make it' }] })).stopReason).toBe('end_turn')
    expect(existsSync(join(dir, 'never-asked-well'))).toBe(false)
    expect(lastUser(server)).toContain('The editor could not be asked about this Bash call')
    expect(lastUser(server)).toContain('the dialog broke')
    expect(a.stderr()).toContain('the editor could not be asked about Bash')
    expect(a.stderr()).not.toContain('handler failed')
  })

  it('a slash command that makes no model call shows its output as the agent\'s message', async () => {
    server = await startFakeAnthropic({ script: [] })
    const a = agentProcess = startAgent([], { cwd: dir, env: envFor(server) })
    await a.agent.request('initialize', init)
    const { sessionId } = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
    expect((await a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/cost' }] })).stopReason).toBe('end_turn')
    expect(chunks(a.updates, 'agent_message_chunk')).toMatch(/^Estimated cost: /)
    expect(server.requests).toHaveLength(0)
  })

  it('/clear is the editor\'s (a new thread): not offered, and answered with a note, the conversation kept for session/load', async () => {
    server = await startFakeAnthropic({ script: [{ reply: 'one' }, { reply: 'two' }] })
    const a = agentProcess = startAgent([], { cwd: dir, env: envFor(server) })
    await a.agent.request('initialize', init)
    const { sessionId } = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
    await a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'first' }] })
    expect((await a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/clear' }] })).stopReason).toBe('end_turn')
    expect(chunks(a.updates, 'agent_message_chunk')).toContain('/clear is not available in an editor')
    await a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'second' }] })
    expect(JSON.stringify(server.requests[1]!.body.messages)).toContain('first')
    const offered = a.updates.map((n) => n.update).filter((u) => u.sessionUpdate === 'available_commands_update')
    expect(offered.length).toBeGreaterThan(0)
    for (const u of offered) expect((u as { availableCommands: { name: string }[] }).availableCommands.map((c) => c.name)).not.toContain('clear')
  })

  it('a prompt whose key the API refuses answers ACP\'s authentication required, with the API\'s message; the session goes on', async () => {
    server = await startFakeAnthropic({ script: [{ error: { status: 401, message: 'invalid x-api-key' } }, { reply: 'back again' }] })
    const a = agentProcess = startAgent([], { cwd: dir, env: envFor(server) })
    await a.agent.request('initialize', init)
    const { sessionId } = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
    const failed = await a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] }).then(() => undefined, (err: { code?: number; message?: string }) => err)
    expect(failed).toMatchObject({ code: -32000, message: expect.stringContaining('invalid x-api-key') })
    expect((await a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] })).stopReason).toBe('end_turn')
    expect(chunks(a.updates, 'agent_message_chunk')).toBe('back again')
  })

  it('a second prompt while one runs is refused; cancel stops the running Bash call and ends the prompt cancelled', async () => {
    server = await startFakeAnthropic({
      script: [{ reply: [{ tool_use: { id: 'toolu_slow', name: 'Bash', input: { command: 'echo $$ > slow.pid; sleep 30; echo finished > slow.done' } } }] }],
    })
    let asked!: () => void
    const askedP = new Promise<void>((resolve) => { asked = resolve })
    const a = agentProcess = startAgent([], {
      cwd: dir, env: envFor(server),
      setup: (app) => app.onRequest('session/request_permission', () => {
        asked()
        return { outcome: { outcome: 'selected', optionId: 'allow_once' } }
      }),
    })
    await a.agent.request('initialize', init)
    const { sessionId } = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
    const running = a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wait' }] })
    await askedP
    expect(await errorCode(a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] }))).toBe(-32600)
    // The shell has started once its pid file holds its pid (the file exists a moment before).
    let pid = 0
    while (!pid) {
      await new Promise((r) => setTimeout(r, 20))
      pid = Number((await readFile(join(dir, 'slow.pid'), 'utf8').catch(() => '')).trim())
    }
    await a.agent.notify('session/cancel', { sessionId })
    expect((await running).stopReason).toBe('cancelled')
    // Killed; gone once reaped, which may trail the answer by a moment.
    while (alive(pid)) await new Promise((r) => setTimeout(r, 20))
    expect(existsSync(join(dir, 'slow.done'))).toBe(false)
    const update = a.updates.map((n) => n.update).filter((u) => u.sessionUpdate === 'tool_call_update').at(-1)
    expect(update?.status).toBe('failed')
  })

  it('editor-side fs and terminal: Read sees the unsaved buffer, Edit and Write land in the editor, Bash runs in an editor terminal', async () => {
    const file = join(dir, 'notes.txt')
    await writeFile(file, 'disk text\n')
    server = await startFakeAnthropic({
      script: [
        { reply: [{ tool_use: { id: 'toolu_read', name: 'Read', input: { file_path: file } } }] },
        { reply: [{ tool_use: { id: 'toolu_edit', name: 'Edit', input: { file_path: file, old_string: 'buffer', new_string: 'edited' } } }] },
        { reply: [{ tool_use: { id: 'toolu_write', name: 'Write', input: { file_path: join(dir, 'fresh.txt'), content: 'new in the editor\n' } } }] },
        { reply: [{ tool_use: { id: 'toolu_term', name: 'Bash', input: { command: 'echo via-terminal' } } }] },
        { reply: 'done' },
      ],
    })
    const buffers = new Map([[file, 'buffer text\n']])
    const reads: string[] = []
    const terminals = new Map<string, { output: string; exit: Promise<number | null> }>()
    const a = agentProcess = startAgent([], {
      cwd: dir, env: envFor(server),
      setup: (app) => editorBuffers(buffers, { reads })(app)
        .onRequest('session/request_permission', () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }))
        .onRequest('terminal/create', ({ params }) => {
          const id = `term-${terminals.size + 1}`
          const child = spawn(params.command, params.args ?? [], { cwd: params.cwd ?? dir })
          const t = { output: '', exit: new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code))) }
          child.stdout.on('data', (d: Buffer) => { t.output += d.toString() })
          terminals.set(id, t)
          return { terminalId: id }
        })
        .onRequest('terminal/wait_for_exit', async ({ params }) => ({ exitCode: await terminals.get(params.terminalId)!.exit }))
        .onRequest('terminal/output', async ({ params }) => {
          const t = terminals.get(params.terminalId)!
          return { output: t.output, truncated: false, exitStatus: { exitCode: await t.exit } }
        })
        .onRequest('terminal/release', () => ({}))
        .onRequest('terminal/kill', () => ({})),
    })
    await a.agent.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true } })
    const { sessionId } = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
    const r = await a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'edit the notes' }] })
    expect(r.stopReason).toBe('end_turn')
    expect(reads).toContain(file)
    // The model read the buffer, not the disk.
    expect(JSON.stringify(server.requests[1]!.body.messages)).toContain('buffer text')
    expect(buffers.get(file)).toBe('edited text\n')
    expect(await readFile(file, 'utf8')).toBe('disk text\n')
    expect(buffers.get(join(dir, 'fresh.txt'))).toBe('new in the editor\n')
    expect(existsSync(join(dir, 'fresh.txt'))).toBe(false)
    const updates = a.updates.map((n) => n.update)
    const editCall = updates.find((u) => u.sessionUpdate === 'tool_call' && u.toolCallId === 'toolu_edit')
    expect(editCall).toMatchObject({ kind: 'edit', locations: [{ path: file }], content: [{ type: 'diff', path: file, oldText: 'buffer', newText: 'edited' }] })
    const termContent = updates.filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 'toolu_term').flatMap((u) => ('content' in u ? (u.content as ToolCallContent[] | null) ?? [] : []))
    expect(termContent).toContainEqual({ type: 'terminal', terminalId: 'term-1' })
    expect(JSON.stringify(server.requests[4]!.body.messages)).toContain('via-terminal')
  })

  it('editor-side Write and Edit of a buffer not read: a newer model may change it; a notebook is refused to Edit', async () => {
    const [notes, nb] = [join(dir, 'unread-notes.txt'), join(dir, 'unread.ipynb')]
    server = await startFakeAnthropic({
      script: [
        { reply: [{ tool_use: { id: 'toolu_w', name: 'Write', input: { file_path: notes, content: 'replaced\n' } } }] },
        { reply: [{ tool_use: { id: 'toolu_e', name: 'Edit', input: { file_path: nb, old_string: 'x=1', new_string: 'x=2' } } }] },
        { reply: 'done' },
      ],
    })
    const buffers = new Map([[notes, 'buffer text\n'], [nb, '{"cells":[{"source":["x=1"]}]}']])
    const a = agentProcess = startAgent(['--allowedTools', 'Write,Edit', '--model', 'claude-opus-4-7'], {
      cwd: dir, env: envFor(server),
      setup: editorBuffers(buffers),
    })
    await a.agent.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } } })
    const { sessionId } = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
    expect((await a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'change them' }] })).stopReason).toBe('end_turn')
    expect(buffers.get(notes)).toBe('replaced\n')
    expect(lastUser(server)).toContain(`${nb} is a Jupyter notebook; change its cells with NotebookEdit.`)
    expect(buffers.get(nb)).toBe('{"cells":[{"source":["x=1"]}]}')
  })

  it('an editor whose fs handler throws a plain error: a missing file is still new to Write, and other errors reach the model with their cause', async () => {
    const locked = join(dir, 'locked.txt')
    const fresh = join(dir, 'made-by-write.txt')
    server = await startFakeAnthropic({
      script: [
        { reply: [{ tool_use: { id: 'toolu_w', name: 'Write', input: { file_path: fresh, content: 'hi\n' } } }] },
        { reply: [{ tool_use: { id: 'toolu_r', name: 'Read', input: { file_path: locked } } }] },
        { reply: 'done' },
      ],
    })
    const buffers = new Map<string, string>()
    const a = agentProcess = startAgent(['--allowedTools', 'Read,Write'], {
      cwd: dir, env: envFor(server),
      // As a Node editor's handler fails: the SDK answers -32603 "Internal error", the cause in data.details.
      setup: editorBuffers(buffers, {
        missing: (path) => new Error(path === locked ? `EACCES: permission denied, open '${locked}'` : `ENOENT: no such file or directory, open '${path}'`),
      }),
    })
    await a.agent.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } } })
    const { sessionId } = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
    expect((await a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write it' }] })).stopReason).toBe('end_turn')
    expect(buffers.get(fresh)).toBe('hi\n')
    expect(lastUser(server)).toContain(`Cannot read ${locked} in the editor: Internal error: EACCES: permission denied`)
  })

  it('an image is read from disk, not through the editor\'s text buffers, and shown in the editor as an image', async () => {
    const image = join(dir, 'shot.png')
    await writeFile(image, png(4, 3))
    server = await startFakeAnthropic({ script: [{ reply: [{ tool_use: { id: 'toolu_img', name: 'Read', input: { file_path: image } } }] }, { reply: 'a red square' }] })
    const reads: string[] = []
    const a = agentProcess = startAgent([], {
      cwd: dir, env: envFor(server),
      setup: (app) => app
        .onRequest('session/request_permission', () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }))
        .onRequest('fs/read_text_file', ({ params }) => {
          reads.push(params.path)
          return { content: 'text the editor made of the bytes' }
        })
        .onRequest('fs/write_text_file', () => ({})),
    })
    await a.agent.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } } })
    const { sessionId } = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
    expect((await a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'look' }] })).stopReason).toBe('end_turn')
    expect(reads).toEqual([])
    const data = png(4, 3).toString('base64')
    expect(JSON.stringify(server.requests[1]!.body.messages)).toContain(data)
    const update = a.updates.map((n) => n.update).find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 'toolu_img')
    expect(update).toMatchObject({ status: 'completed', content: [{ type: 'content', content: { type: 'image', data, mimeType: 'image/png' } }] })
  })

  it('session/load replays a saved session, which goes on; it resumes with -p --resume, and a -p session loads over ACP', async () => {
    expect(savedSession).not.toBe('')
    server = await startFakeAnthropic({
      script: [
        { reply: 'Still here.', expect: { lastUserText: 'and now?' } },
        { reply: 'Resumed headless.', expect: { lastUserText: 'from the shell' } },
        { reply: 'Started headless.' },
        { reply: 'Loaded in the editor.', expect: { lastUserText: 'over acp' } },
      ],
    })
    const a = agentProcess = startAgent([], { cwd: dir, env: envFor(server) })
    await a.agent.request('initialize', init)
    await a.agent.request('session/load', { sessionId: savedSession, cwd: dir, mcpServers: [] })
    expect(chunks(a.updates, 'user_message_chunk')).toBe('run it')
    expect(chunks(a.updates, 'agent_message_chunk')).toBe('Running it.It printed hello-acp.')
    expect(kinds(a).filter((k) => k === 'tool_call' || k === 'tool_call_update')).toEqual(['tool_call', 'tool_call_update'])
    expect((await a.agent.request('session/prompt', { sessionId: savedSession, prompt: [{ type: 'text', text: 'and now?' }] })).stopReason).toBe('end_turn')
    expect(lastUser(server)).toContain('and now?')
    expect(JSON.stringify(server.requests.at(-1)!.body.messages)).toContain('hello-acp')
    await a.close()
    agentProcess = undefined

    const resumed = await builtModloop(['-p', 'from the shell', '--resume', savedSession], { cwd: dir, env: envFor(server) })
    expect(resumed).toMatchObject({ code: 0, out: 'Resumed headless.\n' })
    expect(JSON.stringify(server.requests.at(-1)!.body.messages)).toContain('and now?')

    const headless = await builtModloop(['-p', 'started in the shell', '--output-format', 'json'], { cwd: dir, env: envFor(server) })
    const sessionId = (JSON.parse(headless.out) as { session_id: string }).session_id
    const b = agentProcess = startAgent([], { cwd: dir, env: envFor(server) })
    await b.agent.request('initialize', init)
    await b.agent.request('session/load', { sessionId, cwd: dir, mcpServers: [] })
    expect(chunks(b.updates, 'user_message_chunk')).toBe('started in the shell')
    expect(chunks(b.updates, 'agent_message_chunk')).toBe('Started headless.')
    expect((await b.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'over acp' }] })).stopReason).toBe('end_turn')
    expect(JSON.stringify(server.requests.at(-1)!.body.messages)).toContain('started in the shell')
  })

  it('prompt content: images, resource links as mentions, embedded context; a refusal ends the prompt refused', async () => {
    await writeFile(join(dir, 'linked.txt'), 'linked file body\n')
    server = await startFakeAnthropic({ script: [{ reply: 'I will not.', stop_reason: 'refusal' }] })
    const a = agentProcess = startAgent([], { cwd: dir, env: envFor(server) })
    await a.agent.request('initialize', init)
    const { sessionId } = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
    const r = await a.agent.request('session/prompt', {
      sessionId,
      prompt: [
        { type: 'text', text: 'look' },
        { type: 'image', mimeType: 'image/png', data: png },
        { type: 'resource_link', uri: `file://${join(dir, 'linked.txt')}`, name: 'linked.txt' },
        { type: 'resource', resource: { uri: 'file:///editor/selection.ts', text: 'const selected = 1' } },
      ],
    })
    expect(r.stopReason).toBe('refusal')
    const sent = JSON.stringify(server.requests[0]!.body.messages)
    expect(sent).toContain('"type":"image"')
    expect(sent).toContain('linked file body')
    expect(sent).toContain('const selected = 1')
    expect(await errorCode(a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'audio', mimeType: 'audio/wav', data: 'AAAA' }] }))).toBe(-32602)
  })
})

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
