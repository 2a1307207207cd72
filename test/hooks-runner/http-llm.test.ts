import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveHooks } from '../../hooks-runner/resolve-hooks.js'
import { extractJsonObject, expandPrompt, type LlmHookRequest } from '../../hooks-runner/run-llm.js'
import { fire, group, preToolUse, projectSource } from './helpers.js'

let server: Server
let base = ''
const seen: { path: string; headers: IncomingHttpHeaders; body: string }[] = []
const replies: Record<string, { status: number; body: string; delayMs?: number }> = {
  '/deny': { status: 200, body: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'http says no' } }) },
  '/empty': { status: 200, body: '' },
  '/text': { status: 200, body: 'just some text' },
  '/bad-shape': { status: 200, body: JSON.stringify({ continue: 'yes' }) },
  '/500': { status: 500, body: JSON.stringify({ decision: 'block' }) },
  '/slow': { status: 200, body: '', delayMs: 5000 },
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += d)).on('end', () => {
      seen.push({ path: req.url!, headers: req.headers, body })
      const reply = replies[req.url!] ?? { status: 404, body: '' }
      const send = () => res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body)
      if (reply.delayMs) setTimeout(send, reply.delayMs).unref()
      else send()
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const http = (path: string, more: object = {}) => ({ type: 'http', url: `${base}${path}`, ...more })

describe('http hooks (spec §3.8)', () => {
  it('POST the input JSON and apply a JSON answer; headers interpolate only allowed variables', async () => {
    const hooks = group('PreToolUse', [http('/deny', {
      headers: { Authorization: 'Bearer $HOOK_TOKEN', 'X-Leak': '${SECRET_KEY}', 'X-Both': '${HOOK_TOKEN}-$SECRET_KEY' },
      allowedEnvVars: ['HOOK_TOKEN'],
    })])
    const r = await fire('PreToolUse', preToolUse('ls'), hooks, { env: { ...process.env, HOOK_TOKEN: 'tok', SECRET_KEY: 'hunter2' } })
    expect(r).toMatchObject({ decision: 'deny', blocked: true, decisionReason: 'http says no' })
    const req = seen.find((s) => s.path === '/deny')!
    expect(JSON.parse(req.body)).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } })
    expect(req.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer tok', 'x-leak': '', 'x-both': 'tok-' })
    expect(r.records[0]).toMatchObject({ type: 'http', httpStatus: 200, outcome: 'blocking' })
  })

  it('an empty 2xx is success; text, a wrong shape, non-2xx and refused connections are non-blocking errors', async () => {
    const r = await fire('Stop', {}, group('Stop', [http('/empty'), http('/text'), http('/bad-shape'), http('/500'), { type: 'http', url: 'http://127.0.0.1:9/refused' }]))
    expect(r.records.map((x) => x.outcome)).toEqual(['success', 'error', 'error', 'error', 'error'])
    expect(r.blocked).toBe(false)
    expect(r.additionalContexts).toEqual([])
    expect(r.records[3]!.message).toBe('HTTP 500 Internal Server Error')
  })

  it('a slow server times out with no decision', async () => {
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [http('/slow', { timeout: 0.2 })]))
    expect(r.records[0]!.outcome).toBe('timeout')
    expect(r.blocked).toBe(false)
  })

  it('URLs outside allowedHttpHookUrls are skipped; the settings bound narrows allowedEnvVars', async () => {
    const { runHooks } = await import('../../hooks-runner/run-hooks.js')
    const hooks = group('Stop', [http('/empty', { headers: { A: '$HOOK_TOKEN' }, allowedEnvVars: ['HOOK_TOKEN'] }), { type: 'http', url: 'https://elsewhere.example/x' }])
    const { config } = resolveHooks([{ source: projectSource(), hooks }], { allowedHttpHookUrls: [`${base}/*`], httpHookAllowedEnvVars: [] })
    const before = seen.length
    const r = await runHooks('Stop', {}, { config, projectDir: process.cwd(), env: { HOOK_TOKEN: 'tok' } })
    expect(r.records).toHaveLength(1)
    expect(r.warnings).toContainEqual(expect.objectContaining({ code: 'HOOKS_WARN_URL_BLOCKED' }))
    expect(seen.slice(before)[0]!.headers.a).toBe('')
  })
})

describe('prompt and agent hooks (spec §3.9)', () => {
  it('without a model from the host they are reported as unsupported', async () => {
    const r = await fire('Stop', {}, group('Stop', [{ type: 'prompt', prompt: 'ok?' }]))
    expect(r.records[0]).toMatchObject({ outcome: 'error', errorCode: 'HOOKS_ERR_UNSUPPORTED' })
    expect(r.blocked).toBe(false)
  })

  it('call the host with $ARGUMENTS expanded; ok:false on Stop feeds the reason back', async () => {
    const requests: LlmHookRequest[] = []
    const llm = async (req: LlmHookRequest) => {
      requests.push(req)
      return 'Sure! Here is my verdict:\n```json\n{"ok": false, "reason": "tests were not run"}\n```'
    }
    const r = await fire('Stop', { last_assistant_message: 'done' }, group('Stop', [{ type: 'prompt', prompt: 'Check \\$5 rule: $ARGUMENTS', model: 'fast' }]), { llm })
    expect(r).toMatchObject({ blocked: true, blockReason: '[Check \\$5 rule: $ARGUMENTS]: tests were not run' })
    expect(requests[0]).toMatchObject({ type: 'prompt', model: 'fast', event: 'Stop' })
    expect(requests[0]!.prompt).toMatch(/^Check \$5 rule: \{.*"last_assistant_message":"done".*\}$/)
  })

  it('impossible:true lets Stop end; PreToolUse ok:false denies and ends the turn unless continueOnBlock', async () => {
    const impossible = await fire('Stop', {}, group('Stop', [{ type: 'prompt', prompt: 'p' }]), { llm: async () => ({ ok: false, reason: 'x', impossible: true }) })
    expect(impossible.blocked).toBe(false)
    const deny = await fire('PreToolUse', preToolUse(), group('PreToolUse', [{ type: 'prompt', prompt: 'p' }]), { llm: async () => '{"ok":false,"reason":"risky"}' })
    expect(deny).toMatchObject({ decision: 'deny', stop: { reason: 'risky' } })
    const agent = await fire('PreToolUse', preToolUse(), group('PreToolUse', [{ type: 'agent', prompt: 'p' }]), { llm: async () => '{"ok":false,"reason":"risky"}' })
    expect(agent.decision).toBe('deny')
    expect(agent.stop).toBeUndefined()
  })

  it('a reply that is not a verdict is a non-blocking error; a slow model times out', async () => {
    const junk = await fire('Stop', {}, group('Stop', [{ type: 'prompt', prompt: 'p' }]), { llm: async () => 'I think it is fine' })
    expect(junk.records[0]).toMatchObject({ outcome: 'error', errorCode: 'HOOKS_ERR_LLM' })
    const slow = await fire('Stop', {}, group('Stop', [{ type: 'prompt', prompt: 'p', timeout: 0.1 }]), { llm: () => new Promise(() => {}) })
    expect(slow.records[0]!.outcome).toBe('timeout')
  })

  it('prompt hooks are refused on events that take command hooks only', async () => {
    const r = await fire('SessionStart', { source: 'startup' }, group('SessionStart', [{ type: 'prompt', prompt: 'p' }]), { llm: async () => '{"ok":true}' })
    expect(r.records).toEqual([])
    expect(r.warnings).toContainEqual(expect.objectContaining({ code: 'HOOKS_WARN_HANDLER_TYPE' }))
  })

  it('extracts JSON from prose and fences; expands prompts', () => {
    expect(extractJsonObject('Result: {"ok": true, "reason": "a } b"} — done')).toEqual({ ok: true, reason: 'a } b' })
    expect(expandPrompt('no placeholder', '{}')).toBe('no placeholder\n\nARGUMENTS: {}')
    expect(expandPrompt('costs \\$1, input $ARGUMENTS', '{"a":1}')).toBe('costs $1, input {"a":1}')
  })
})

describe('mcp_tool hooks (spec §3.10)', () => {
  it('call the host client with ${path} substituted and read its text like stdout', async () => {
    const calls: unknown[] = []
    const mcp = async (req: { server: string; tool: string; input: Record<string, unknown> }) => {
      calls.push(req)
      return { text: JSON.stringify({ decision: 'block', reason: 'scanner found a secret' }) }
    }
    const hooks = group('PostToolUse', [{ type: 'mcp_tool', server: 'scan', tool: 'check', input: { path: '${tool_input.file_path}', note: 'file ${tool_input.file_path}' } }])
    const r = await fire('PostToolUse', { tool_name: 'Write', tool_input: { file_path: '/p/a.ts' }, tool_response: {} }, hooks, { mcp })
    expect(calls[0]).toMatchObject({ server: 'scan', tool: 'check', input: { path: '/p/a.ts', note: 'file /p/a.ts' } })
    expect(r).toMatchObject({ blocked: true, blockReason: 'scanner found a secret' })
    const failing = await fire('PostToolUse', { ...preToolUse(), tool_response: {} }, hooks, { mcp: async () => ({ text: 'boom', isError: true }) })
    expect(failing.records[0]).toMatchObject({ outcome: 'error', errorCode: 'HOOKS_ERR_MCP' })
  })
})
