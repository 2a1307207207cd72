import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { line, streamSession } from '../helpers/stream-session.js'

// The Agent SDK's transport, driven in process by hand: what the SDK writes on stdin, line by line.

let dir: string
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'modloop-sdk-transport-')) })
afterAll(() => rm(dir, { recursive: true, force: true }))

/** The shared stream session, in this file's directory unless told otherwise. */
const session = (script: unknown, args: string[], on: (line: any, stdin: PassThrough) => void, cwd = dir) => streamSession(script, args, on, cwd)

const user = (text: string) => line({ type: 'user', session_id: '', message: { role: 'user', content: [{ type: 'text', text }] }, parent_tool_use_id: null })

describe('the SDK transport', () => {
  it('answers initialize and the control requests it has controls for; names the ones it has not', async () => {
    const s = await session([{ reply: 'hello' }], [], (m, stdin) => {
      if (m.type === 'result') stdin.end()
    })
    s.stdin.write(line({ type: 'control_request', request_id: 'init', request: { subtype: 'initialize', systemPrompt: [''], title: 'named', planModeInstructions: 'plan' } }))
    s.stdin.write('not json\n')
    s.stdin.write(line({ type: 'control_request', request_id: 'status', request: { subtype: 'mcp_status' } }))
    s.stdin.write(line({ type: 'control_request', request_id: 'settings', request: { subtype: 'get_settings' } }))
    s.stdin.write(line({ type: 'control_request', request_id: 'mode', request: { subtype: 'set_permission_mode', mode: 'acceptEdits' } }))
    s.stdin.write(line({ type: 'control_request', request_id: 'bad-mode', request: { subtype: 'set_permission_mode', mode: 'yolo' } }))
    s.stdin.write(line({ type: 'control_request', request_id: 'bypass', request: { subtype: 'set_permission_mode', mode: 'bypassPermissions' } }))
    s.stdin.write(line({ type: 'control_request', request_id: 'stop', request: { subtype: 'stop_task', task_id: 'task_x' } }))
    s.stdin.write(line({ type: 'control_request', request_id: 'pin', request: { subtype: 'set_mcp_permission_mode_override', serverName: 'docs', mode: 'default' } }))
    s.stdin.write(line({ type: 'control_request', request_id: 'flags', request: { subtype: 'apply_flag_settings', settings: { permissions: { deny: ['WebFetch'] } } } }))
    s.stdin.write(line({ type: 'control_request', request_id: 'bad-flags', request: { subtype: 'apply_flag_settings', settings: { effortLevel: 'extreme' } } }))
    s.stdin.write(line({ type: 'control_request', request_id: 'bad-pin', request: { subtype: 'set_mcp_permission_mode_override', serverName: 'docs', mode: 'bypassPermissions' } }))
    s.stdin.write(line({ type: 'control_request', request_id: 'rewind', request: { subtype: 'rewind_files', user_message_id: 'nope' } }))
    s.stdin.write(line({ type: 'control_request', request_id: 'bare', request: {} }))
    s.stdin.write(line({ type: 'control_request', request_id: 'none' }))
    s.stdin.write(user('hi'))
    expect(await s.code).toBe(0)
    await s.server.close()
    const answer = (id: string) => s.out.find((m) => m.type === 'control_response' && m.response.request_id === id)?.response
    expect(answer('init')).toMatchObject({ subtype: 'success', response: { hook_on_failure_supported: true, output_style: 'default', pid: process.pid } })
    expect(answer('init').response.commands.map((c: { name: string }) => c.name)).toContain('reload')
    expect(answer('status')).toEqual({ subtype: 'success', request_id: 'status', response: { mcpServers: [] } })
    // The SDK hands error_code to the application as the rejected Error's errorCode, as Claude Code's codes.
    expect(answer('settings')).toMatchObject({ subtype: 'error', error: expect.stringContaining('does not support the control request "get_settings"'), error_code: 'unsupported_request' })
    expect(answer('mode')).toMatchObject({ subtype: 'success', response: { mode: 'acceptEdits' } })
    expect(answer('bad-mode')).toMatchObject({ subtype: 'error', error: expect.stringContaining('"yolo" is not a permission mode'), error_code: 'invalid_mode' })
    expect(answer('bypass')).toMatchObject({ subtype: 'error', error: expect.stringContaining('allowDangerouslySkipPermissions'), error_code: 'bypass_not_launched' })
    expect(answer('pin')).toEqual({ subtype: 'success', request_id: 'pin', response: { warning: expect.stringContaining('no MCP server named "docs" is known to this session') } })
    expect(answer('flags')).toEqual({ subtype: 'success', request_id: 'flags', response: {} })
    expect(answer('bad-flags')).toMatchObject({ subtype: 'error', error: expect.stringContaining('effortLevel must be one of') })
    expect(answer('bad-pin')).toMatchObject({ subtype: 'error', error: expect.stringContaining('"bypassPermissions" cannot pin a server') })
    expect(answer('stop')).toMatchObject({ subtype: 'error', error: expect.stringContaining('no running task task_x') })
    expect(answer('rewind')).toMatchObject({ subtype: 'error', error: expect.stringContaining('File checkpointing is not enabled') })
    expect(answer('bare')).toEqual({ subtype: 'error', request_id: 'bare', error: 'a control_request needs a request with a subtype', error_code: 'unsupported_request' })
    expect(answer('none')).toEqual({ subtype: 'error', request_id: 'none', error: 'a control_request needs a request with a subtype', error_code: 'unsupported_request' })
    expect(s.out.find((m) => m.type === 'result')).toMatchObject({ subtype: 'success', result: 'hello' })
    expect(s.err()).toContain('a line that is not JSON was skipped: not json')
    expect(s.err()).not.toContain('planModeInstructions')
    expect(s.out.find((m) => m.type === 'system' && m.subtype === 'init')).toMatchObject({ title: 'named' })
    // The SDK's [""] (no system prompt given) leaves modloop's own.
    expect(JSON.stringify((s.server.requests[0]!.body as any).system)).toContain('You are an agent running in modloop')
  })

  it('accepts every flag the SDK sends: honours tools, betas, setting sources and the thinking display, names the others once', async () => {
    const s = await session([{ reply: 'ok' }], [
      '--tools=Read', '--betas=context-1m-2025-08-07', '--setting-sources=project', '--thinking-display=summarized', '--debug', '--await-initialize',
      '--permission-prompt-tool=stdio', '--allow-dangerously-skip-permissions', '--max-turns=3', '--include-partial-messages', '--project-config-root=/x', '--task-budget=64000',
    ], (m, stdin) => {
      if (m.type === 'result') stdin.end()
    })
    s.stdin.write(line({ type: 'control_request', request_id: 'init', request: { subtype: 'initialize' } }))
    s.stdin.write(user('hi'))
    expect(await s.code).toBe(0)
    await s.server.close()
    expect(s.out.find((m) => m.type === 'system' && m.subtype === 'init').tools).toEqual(['Read'])
    expect(s.server.requests[0]!.headers['anthropic-beta']).toBe('context-1m-2025-08-07,task-budgets-2026-03-13')
    expect((s.server.requests[0]!.body as any).thinking).toMatchObject({ display: 'summarized' })
    expect((s.server.requests[0]!.body as any).output_config).toMatchObject({ task_budget: { type: 'tokens', total: 64000 } })
    const err = s.err()
    expect(err).not.toContain('--thinking-display')
    expect(err).not.toContain('--debug')
    for (const flag of ['--project-config-root']) {
      expect(err.split(`${flag} is accepted but not honoured`).length - 1, flag).toBe(1)
    }
    expect(err).not.toContain('--await-initialize')
  })

  it("an MCP server's request for the user's input goes to the SDK as an elicitation request; its answer is what the server reads", async () => {
    const fixture = process.env.MODLOOP_TEST_MCP_FIXTURE ?? fileURLToPath(new URL('../mcp/fixtures/server.mjs', import.meta.url))
    const config = JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [fixture] } } })
    const script = [{ reply: [{ tool_use: { id: 'toolu_ask', name: 'mcp__fixture__ask', input: {} } }] }, { reply: 'done' }]
    const s = await session(script, ['--mcp-config', config, '--allowedTools', 'mcp__fixture__ask'], (m, stdin) => {
      if (m.type === 'control_request' && m.request.subtype === 'elicitation') {
        stdin.write(line({ type: 'control_response', response: { subtype: 'success', request_id: m.request_id, response: { action: 'accept', content: { name: 'Ada' } } } }))
      }
      if (m.type === 'result') stdin.end()
    })
    s.stdin.write(user('ask me'))
    expect(await s.code).toBe(0)
    await s.server.close()
    const asked = s.out.find((m) => m.type === 'control_request' && m.request.subtype === 'elicitation')
    expect(asked.request).toEqual({
      subtype: 'elicitation', mcp_server_name: 'fixture', message: 'Your name?', mode: 'form',
      requested_schema: { type: 'object', properties: { name: { type: 'string' } } }, property_order: ['name'],
    })
    const result = (s.server.requests[1]!.body as any).messages.at(-1).content[0]
    expect(JSON.stringify(result.content)).toContain('asked: accept {\\"name\\":\\"Ada\\"}')
  })

  it('--bare (the SDK passes it through extraArgs) starts the minimal distribution', async () => {
    const s = await session([{ reply: 'ok' }], ['--bare'], (m, stdin) => {
      if (m.type === 'result') stdin.end()
    })
    s.stdin.write(user('hi'))
    expect(await s.code).toBe(0)
    await s.server.close()
    expect(s.out.find((m) => m.type === 'system' && m.subtype === 'init').tools).toEqual(['Bash', 'Edit', 'Read'])
    expect(((s.server.requests[0]!.body as any).tools as { name: string }[]).map((t) => t.name)).toEqual(['Bash', 'Edit', 'Read'])
  })

  it('a user line marked client_composed (the SDK\'s verbatimPrompts) runs no slash command: the model reads it', async () => {
    let results = 0
    const s = await session([{ reply: 'read as text' }], [], (m, stdin) => {
      if (m.type === 'result' && ++results === 2) stdin.end()
    })
    s.stdin.write(line({ type: 'user', session_id: '', message: { role: 'user', content: [{ type: 'text', text: '/cost' }] }, parent_tool_use_id: null, client_composed: true }))
    s.stdin.write(user('/cost'))
    expect(await s.code).toBe(0)
    await s.server.close()
    const [verbatim, typed] = s.out.filter((m) => m.type === 'result')
    expect(verbatim).toMatchObject({ result: 'read as text' })
    expect(verbatim).not.toHaveProperty('local_command')
    expect(typed).toMatchObject({ local_command: 'cost' })
    expect(s.server.requests).toHaveLength(1)
  })

  it('side_question answers from the conversation after a turn, with no result of its own; a second turn\'s request holds nothing of it', async () => {
    let results = 0
    const s = await session([
      { reply: 'the code is 42' },
      { when: { lastUserText: 'side question' }, reply: '42' },
      { reply: 'done' },
    ], [], (m, stdin) => {
      if (m.type === 'result' && ++results === 1) stdin.write(line({ type: 'control_request', request_id: 'btw', request: { subtype: 'side_question', question: 'what was the code?' } }))
      if (m.type === 'control_response' && m.response.request_id === 'btw') stdin.write(user('continue'))
      if (m.type === 'result' && results === 2) stdin.end()
    })
    s.stdin.write(user('the code is 42, remember it'))
    expect(await s.code).toBe(0)
    await s.server.close()
    const answer = s.out.find((m) => m.type === 'control_response' && m.response.request_id === 'btw')
    expect(answer.response).toMatchObject({ subtype: 'success', response: { response: '42', synthetic: false } })
    expect(s.out.filter((m) => m.type === 'result').map((m) => m.result)).toEqual(['the code is 42', 'done'])
    expect(JSON.stringify((s.server.requests[2]!.body as any).messages)).not.toContain('what was the code')
  })

  it('initialize\'s skills and planModeInstructions: the skills the model is offered, the workflow in the plan-mode reminder; reload_skills lists the skills', async () => {
    const project = join(dir, 'skills-project')
    for (const name of ['pdf', 'docx']) {
      await mkdir(join(project, '.claude', 'skills', name), { recursive: true })
      await writeFile(join(project, '.claude', 'skills', name, 'SKILL.md'), `---\ndescription: Work with ${name} files\n---\nSteps.\n`)
    }
    // Input ends once both the turn's result and the reload's answer are out.
    const seen = new Set<string>()
    const s = await session([{ reply: 'ok' }], ['--setting-sources=project', '--permission-mode=plan'], (m, stdin) => {
      if (m.type === 'result') seen.add('result')
      if (m.type === 'control_response' && m.response.request_id === 'reload') seen.add('reload')
      if (seen.size === 2) stdin.end()
    }, project)
    s.stdin.write(line({ type: 'control_request', request_id: 'init', request: { subtype: 'initialize', skills: ['pdf'], planModeInstructions: 'Ask about scope first.' } }))
    s.stdin.write(line({ type: 'control_request', request_id: 'reload', request: { subtype: 'reload_skills' } }))
    s.stdin.write(user('hi'))
    expect(await s.code).toBe(0)
    await s.server.close()
    const system = JSON.stringify((s.server.requests[0]!.body as any).system)
    expect(system).toContain('- pdf: Work with pdf files')
    expect(system).not.toContain('docx')
    expect(JSON.stringify((s.server.requests[0]!.body as any).messages[0])).toContain('Ask about scope first.')
    const reload = s.out.find((m) => m.type === 'control_response' && m.response.request_id === 'reload')?.response
    expect(reload).toMatchObject({ subtype: 'success', response: { skills: expect.arrayContaining([expect.objectContaining({ name: 'pdf' }), expect.objectContaining({ name: 'docx' })]) } })
    expect(s.err()).not.toContain('not honoured')
  })

  it('read_file, seed_read_state and reload_output_styles: a file of the session as Read sees it, a Read the SDK saw, the styles written since', async () => {
    const project = join(dir, 'files-project')
    await mkdir(join(project, '.claude', 'output-styles'), { recursive: true })
    await writeFile(join(project, 'notes.txt'), 'first line\n')
    const mtime = Math.floor(statSync(join(project, 'notes.txt')).mtimeMs)
    const asked = ['read', 'cut', 'b64', 'missing', 'bad', 'seed', 'styles']
    const seen = new Set<string>()
    // A model Claude Code holds to read a file before changing it: the seed is what lets the Edit through.
    const s = await session([
      { reply: [{ tool_use: { id: 'toolu_edit', name: 'Edit', input: { file_path: join(project, 'notes.txt'), old_string: 'first line', new_string: 'line one' } } }] },
      { reply: 'edited' },
    ], ['--setting-sources=project', '--permission-mode=acceptEdits', '--model=claude-sonnet-4-5'], (m, stdin) => {
      if (m.type === 'result') seen.add('result')
      if (m.type === 'control_response') seen.add(m.response.request_id)
      // A style written once the session has listed its styles: the reload finds it.
      if (m.type === 'control_response' && m.response.request_id === 'init') {
        writeFileSync(join(project, '.claude', 'output-styles', 'terse.md'), '---\nname: terse\n---\nOne line only.\n')
        stdin.write(line({ type: 'control_request', request_id: 'styles', request: { subtype: 'reload_output_styles' } }))
      }
      if (seen.size === asked.length + 2) stdin.end()
    }, project)
    const control = (id: string, request: object) => s.stdin.write(line({ type: 'control_request', request_id: id, request }))
    control('init', { subtype: 'initialize' })
    control('read', { subtype: 'read_file', path: 'notes.txt' })
    control('cut', { subtype: 'read_file', path: join(project, 'notes.txt'), max_bytes: 5 })
    control('b64', { subtype: 'read_file', path: 'notes.txt', encoding: 'base64' })
    control('missing', { subtype: 'read_file', path: 'gone.txt' })
    control('bad', { subtype: 'read_file', path: 'notes.txt', max_bytes: -1 })
    control('seed', { subtype: 'seed_read_state', path: 'notes.txt', mtime })
    s.stdin.write(user('edit it'))
    expect(await s.code).toBe(0)
    await s.server.close()
    const answer = (id: string) => s.out.find((m) => m.type === 'control_response' && m.response.request_id === id)?.response
    expect(answer('init').response.available_output_styles).toEqual(['default'])
    expect(answer('read')).toMatchObject({ subtype: 'success', response: { contents: 'first line\n', absPath: join(project, 'notes.txt'), lossy: false } })
    expect(answer('cut').response).toEqual({ contents: 'first', absPath: join(project, 'notes.txt'), lossy: false, truncated: true })
    expect(answer('b64').response).toEqual({ contents: Buffer.from('first line\n').toString('base64'), absPath: join(project, 'notes.txt'), encoding: 'base64' })
    expect(answer('missing')).toMatchObject({ subtype: 'error', error: expect.stringContaining('gone.txt cannot be read') })
    expect(answer('bad')).toMatchObject({ subtype: 'error', error: expect.stringContaining('readFile: maxBytes:') })
    expect(answer('seed')).toMatchObject({ subtype: 'success', response: {} })
    expect(answer('styles')).toMatchObject({ subtype: 'success', response: { available_output_styles: ['default', 'terse'] } })
    expect((s.server.requests[1]!.body as any).messages.at(-1).content[0]).toMatchObject({ tool_use_id: 'toolu_edit', content: expect.stringContaining('Edited') })
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('line one\n')
  })

  it('a control sent just before stdin closes is answered before the session ends', async () => {
    const project = join(dir, 'closing-project')
    await mkdir(project, { recursive: true })
    await writeFile(join(project, 'notes.txt'), 'kept\n')
    const s = await session([{ reply: 'ok' }], [], (m, stdin) => {
      if (m.type !== 'result') return
      // As the SDK does once the session is idle: its last requests, then the end of its input.
      stdin.write(line({ type: 'control_request', request_id: 'last', request: { subtype: 'read_file', path: 'notes.txt' } }))
      stdin.end()
    }, project)
    s.stdin.write(user('hi'))
    expect(await s.code).toBe(0)
    await s.server.close()
    expect(s.out.find((m) => m.type === 'control_response' && m.response.request_id === 'last')?.response).toMatchObject({ subtype: 'success', response: { contents: 'kept\n' } })
  })

  it('a canUseTool ask still waiting when stdin closes is denied, and the session ends', async () => {
    const s = await session([
      { reply: [{ tool_use: { id: 'toolu_1', name: 'Bash', input: { command: 'touch x' } } }] },
      { reply: 'could not' },
    ], ['--permission-prompt-tool=stdio'], (m, stdin) => {
      if (m.type === 'control_request' && m.request.subtype === 'can_use_tool') stdin.end()
    })
    s.stdin.write(user('touch it'))
    expect(await s.code).toBe(0)
    await s.server.close()
    const ask = s.out.find((m) => m.type === 'control_request')
    expect(ask.request).toMatchObject({ subtype: 'can_use_tool', tool_name: 'Bash', input: { command: 'touch x' }, tool_use_id: 'toolu_1' })
    const denied = (s.server.requests[1]!.body as any).messages.at(-1).content[0]
    expect(denied).toMatchObject({ tool_use_id: 'toolu_1', is_error: true, content: expect.stringContaining('the SDK closed its input') })
  })

  it('plan mode: set_permission_mode and an approved ExitPlanMode are told as status messages; the plan ends for the mode it was entered from', async () => {
    const file = join(dir, 'written-after-plan.txt')
    const answered: string[] = []
    const s = await session([
      { reply: [{ tool_use: { id: 'toolu_exit', name: 'ExitPlanMode', input: { plan: '# Plan\n1. write the file' } } }] },
      { reply: [{ tool_use: { id: 'toolu_write', name: 'Write', input: { file_path: file, content: 'x' } } }] },
      { reply: 'written' },
      { reply: 'planning again' },
      { reply: 'back to work' },
    ], ['--permission-mode', 'acceptEdits', '--permission-prompt-tool=stdio'], (m, stdin) => {
      if (m.type === 'control_request' && m.request.subtype === 'can_use_tool') {
        // As the Agent SDK answers an allow: the input echoed back.
        stdin.write(line({ type: 'control_response', response: { subtype: 'success', request_id: m.request_id, response: { behavior: 'allow', updatedInput: m.request.input } } }))
      }
      if (m.type !== 'result') return
      answered.push(m.result)
      // Then plan mode again (a turn in it), then out of it by hand: the next prompt says it ended.
      if (answered.length === 1) {
        stdin.write(line({ type: 'control_request', request_id: 'plan2', request: { subtype: 'set_permission_mode', mode: 'plan' } }))
        stdin.write(user('plan again'))
      } else if (answered.length === 2) {
        stdin.write(line({ type: 'control_request', request_id: 'off', request: { subtype: 'set_permission_mode', mode: 'default' } }))
        stdin.write(user('now do it'))
      } else stdin.end()
    })
    s.stdin.write(line({ type: 'control_request', request_id: 'plan', request: { subtype: 'set_permission_mode', mode: 'plan' } }))
    s.stdin.write(user('plan it'))
    expect(await s.code).toBe(0)
    await s.server.close()
    expect(answered).toEqual(['written', 'planning again', 'back to work'])
    const asks = s.out.filter((m) => m.type === 'control_request' && m.request.subtype === 'can_use_tool')
    // Only the plan was asked about: back in acceptEdits, the Write ran unasked.
    expect(asks.map((m) => [m.request.tool_name, m.request.input])).toEqual([['ExitPlanMode', { plan: '# Plan\n1. write the file' }]])
    expect(existsSync(file)).toBe(true)
    const statuses = s.out.filter((m) => m.type === 'system' && m.subtype === 'status').map((m) => m.permissionMode)
    expect(statuses).toEqual(['plan', 'acceptEdits', 'plan', 'default'])
    const exitResult = (s.server.requests[1]!.body as any).messages.at(-1).content[0]
    expect(exitResult).toMatchObject({ tool_use_id: 'toolu_exit', content: expect.stringContaining('User has approved your plan') })
    const text = (i: number) => JSON.stringify((s.server.requests[i]!.body as any).messages.at(-1))
    expect(text(0)).toContain('Plan mode is on')
    expect(text(3)).toContain('Plan mode is on')
    expect(text(4)).toContain('## Exited Plan Mode')
    expect(text(4)).not.toContain('Plan mode is on')
  })
})
