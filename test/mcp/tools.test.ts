import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import type { OnElicitation } from '../../runtime/sdk-options.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { initOf, isAlive, mcp, resultText, startHttpFixture, stdio, tempDirs, toolResults } from './helpers.js'

let http: Awaited<ReturnType<typeof startHttpFixture>>
let dirs: Awaited<ReturnType<typeof tempDirs>>
beforeAll(async () => {
  http = await startHttpFixture()
  dirs = await tempDirs()
})
afterAll(async () => {
  await http.close()
  await dirs.remove()
})

const use = (name: string, input: Record<string, unknown> = {}, id?: string) => ({ tool_use: { name, input, ...(id ? { id } : {}) } })
const both = (web: Record<string, unknown> = {}) => mcp({ home: dirs.home, servers: { fixture: stdio(), web: { type: 'http', url: http.url, ...web } } })

describe('MCP tools in the loop', () => {
  it('lists every server tool as mcp__<server>__<tool> with its schema, over stdio, HTTP and SSE', async () => {
    const mod = mcp({ home: dirs.home, servers: { fixture: stdio(), web: { type: 'http', url: http.url }, old: { type: 'sse', url: http.sseUrl } } })
    const run = await runScript([{ reply: [use('mcp__old__echo', { text: 'over sse' })] }, { reply: 'ok' }], 'go', { cwd: dirs.project, mods: [toolsMod(), mod] })
    const tools = run.requests[0]!.body.tools as { name: string; description: string; input_schema: any }[]
    const echo = tools.find((t) => t.name === 'mcp__fixture__echo')!
    expect(echo.description).toBe('Echo the text back')
    expect(echo.input_schema).toMatchObject({ type: 'object', properties: { text: { type: 'string', description: 'What to echo' } }, required: ['text'] })
    expect(echo.input_schema.$schema).toBeUndefined()
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['mcp__fixture__wait', 'mcp__fixture__crash', 'mcp__web__echo', 'mcp__web__grow']))
    expect(tools.map((t) => t.name)).not.toContain('mcp__web__crash')
    expect(initOf(run.messages).mcp_servers).toEqual([{ name: 'fixture', status: 'connected', source: 'dynamic' }, { name: 'web', status: 'connected', source: 'dynamic' }, { name: 'old', status: 'connected', source: 'dynamic' }])
    expect(resultText(toolResults(run.requests, 1)[0]!)).toBe('echo: over sse')
  })

  it("answers a server's roots/list with the session's directories, the working directory first", async () => {
    const extra = join(dirs.home, 'extra')
    const run = await runScript([{ reply: [use('mcp__fixture__roots')] }, { reply: 'done' }], 'go', { cwd: dirs.project, additionalDirectories: [extra], mods: [toolsMod(), mcp({ home: dirs.home, servers: { fixture: stdio() } })] })
    expect(JSON.parse(resultText(toolResults(run.requests, 1)[0]!))).toEqual([pathToFileURL(dirs.project).href, pathToFileURL(extra).href])
  })

  it('answers a request for the user\'s input (elicitation) with cancel, so the call goes on', async () => {
    const run = await runScript([{ reply: [use('mcp__fixture__ask')] }, { reply: 'done' }], 'go', { cwd: dirs.project, mods: [toolsMod(), mcp({ home: dirs.home, servers: { fixture: stdio() } })] })
    const [asked] = toolResults(run.requests, 1)
    expect(asked!.is_error).toBeFalsy()
    expect(resultText(asked!)).toBe('asked: cancel')
  })

  it("puts a server's request for the user's input to query()'s onElicitation, whose answer the server reads; a failing one is cancel, and named", async () => {
    const asked: unknown[] = []
    const ask = (onElicitation: OnElicitation, log?: (line: string) => void) => runScript([{ reply: [use('mcp__fixture__ask')] }, { reply: 'done' }], 'go', {
      cwd: dirs.project, onElicitation, ...(log ? { log } : {}), mods: [toolsMod(), mcp({ home: dirs.home, servers: { fixture: stdio() } })],
    })
    const answered = await ask(async (request, o) => { asked.push({ request, hasSignal: o.signal instanceof AbortSignal, id: typeof o.requestId }); return { action: 'accept', content: { name: 'Ada' } } })
    expect(resultText(toolResults(answered.requests, 1)[0]!)).toBe('asked: accept {"name":"Ada"}')
    expect(asked).toEqual([{
      request: { serverName: 'fixture', message: 'Your name?', mode: 'form', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
      hasSignal: true, id: 'string',
    }])
    const logged: string[] = []
    const failed = await ask(async () => { throw new Error('no screen') }, (line) => void logged.push(line))
    expect(resultText(toolResults(failed.requests, 1)[0]!)).toBe('asked: cancel')
    expect(logged.join('\n')).toContain("fixture: its request for the user's input could not be answered (no screen); the server hears cancel")
  })

  it('calls tools through the loop: text, errors, images and resources, each server by its own name', async () => {
    const run = await runScript([
      { reply: [use('mcp__fixture__echo', { text: 'hi' }), use('mcp__web__echo', { text: 'there' }), use('mcp__fixture__fail'), use('mcp__web__image'), use('mcp__fixture__echo', { text: 7 })] },
      { reply: 'done' },
    ], 'go', { cwd: dirs.project, mods: [toolsMod(), both()] })
    const [a, b, fail, image, invalid] = toolResults(run.requests, 1)
    expect(resultText(a!)).toBe('echo: hi')
    expect(resultText(b!)).toBe('echo: there')
    expect(fail!.is_error).toBe(true)
    expect(resultText(fail!)).toBe('the fixture failed on purpose')
    expect(image!.content.map((c: { type: string }) => c.type)).toEqual(['text', 'image', 'text'])
    expect(resultText(image!)).toBe('a chart[Resource: file:///notes.txt (text/plain)]\nthe notes')
    expect(invalid!.is_error).toBe(true)
    expect(resultText(invalid!)).toMatch(/expected string/)
    // Hooks and the caller see a result's content blocks; a failed call's text after `Error: `.
    const shown = run.messages.filter((m: any) => m.type === 'user' && m.tool_use_result).map((m: any) => m.tool_use_result)
    expect(shown[0]).toEqual([{ type: 'text', text: 'echo: hi' }])
    expect(shown[2]).toBe('Error: the fixture failed on purpose')
  })

  it('saves audio and blob resources to files the model is pointed at', async () => {
    const run = await runScript([{ reply: [use('mcp__fixture__sound')] }, { reply: 'done' }], 'go', { cwd: dirs.project, mods: [toolsMod(), both()] })
    const text = resultText(toolResults(run.requests, 1)[0]!)
    const [audio, blob] = [...text.matchAll(/saved to (\S+?)\]?$/gm)].map((m) => m[1]!)
    expect(text).toMatch(/^\[Audio: audio\/wav, 14 bytes, saved to \S+\.wav\]\n\[Resource: db:\/\/dump \(application\/octet-stream\)\] binary content, 4 bytes, saved to \S+\.bin$/)
    expect(await readFile(audio!, 'utf8')).toBe('RIFF fake wave')
    expect([...await readFile(blob!)]).toEqual([0, 1, 2, 255])
  })

  it("starts stdio servers in the session's environment: a query's env replaces this process's", async () => {
    const env = { ...process.env, FIXTURE_SECRET: 'from the query' }
    const run = await runScript([{ reply: [use('mcp__fixture__whoami')] }, { reply: 'done' }], 'go', {
      cwd: dirs.project, env, mods: [toolsMod(), mcp({ home: dirs.home, servers: { fixture: stdio() } })],
    })
    expect(JSON.parse(resultText(toolResults(run.requests, 1)[0]!)).secret).toBe('from the query')
  })

  it('runs read-only MCP calls concurrently', async () => {
    const run = await runScript([
      { reply: [use('mcp__fixture__wait', { ms: 400 }), use('mcp__fixture__wait', { ms: 400 }), use('mcp__web__wait', { ms: 400 })] },
      { reply: 'done' },
    ], 'go', { cwd: dirs.project, mods: [toolsMod(), both()] })
    const spans = toolResults(run.requests, 1).map((r) => JSON.parse(resultText(r)) as { start: number; end: number })
    const overlap = Math.min(...spans.map((s) => s.end)) - Math.max(...spans.map((s) => s.start))
    expect(overlap).toBeGreaterThan(250)
  })

  it("saves output above MAX_MCP_OUTPUT_TOKENS whole to a file and shows its start; times calls out after the server's timeout, else MCP_TOOL_TIMEOUT", async () => {
    process.env.MAX_MCP_OUTPUT_TOKENS = '100'
    process.env.MCP_TOOL_TIMEOUT = '300'
    try {
      const run = await runScript([
        { reply: [use('mcp__fixture__big', { chars: 1000 }), use('mcp__fixture__wait', { ms: 2000 }), use('mcp__web__wait', { ms: 2000 }), use('mcp__fixture__echo', { text: 'still fine' })] },
        { reply: 'done' },
      ], 'go', { cwd: dirs.project, mods: [toolsMod(), both({ timeout: 150 })] })
      const [big, slow, slowWeb, echo] = toolResults(run.requests, 1)
      // The model reads the start and where the rest is: the file holds every character, not the cut text.
      const shown = resultText(big!)
      expect(shown).toMatch(/^x{400}\n\n\[Output too large: mcp__fixture__big returned 1,000 characters, more than the 400 allowed \(MAX_MCP_OUTPUT_TOKENS=100\)\. The full output was saved to: /)
      const saved = /saved to: (\S+)/.exec(shown)![1]!
      expect(await readFile(saved, 'utf8')).toBe('x'.repeat(1000))
      expect(slow!.is_error).toBe(true)
      expect(resultText(slow!)).toBe('MCP server "fixture": wait timed out after 300 ms')
      expect(resultText(slowWeb!)).toBe('MCP server "web": wait timed out after 150 ms')
      expect(resultText(echo!)).toBe('echo: still fine')
    } finally {
      delete process.env.MAX_MCP_OUTPUT_TOKENS
      delete process.env.MCP_TOOL_TIMEOUT
    }
  })

  it('lets tool.check deny an MCP tool by its mcp__ name; the server never sees the call', async () => {
    const seen: string[] = []
    const guard = defineMod({
      name: 'guard',
      register(on) {
        on('tool.check', { tool: 'mcp__fixture__echo' }, () => ({ decision: 'deny', reason: 'echo is not allowed here' }))
        on('tool.call', (_$, e, next) => { seen.push(e.tool); return next(e) })
      },
    })
    const run = await runScript([{ reply: [use('mcp__fixture__echo', { text: 'x' }), use('mcp__fixture__pid')] }, { reply: 'done' }], 'go', {
      cwd: dirs.project, mods: [toolsMod(), both(), guard],
    })
    const [denied, pid] = toolResults(run.requests, 1)
    expect(denied).toMatchObject({ is_error: true })
    expect(resultText(denied!)).toBe('echo is not allowed here')
    expect(Number(resultText(pid!))).toBeGreaterThan(0)
    expect(run.result.permission_denials).toEqual([expect.objectContaining({ tool_name: 'mcp__fixture__echo' })])
    expect(seen).toEqual(['mcp__fixture__echo', 'mcp__fixture__pid'])
  })

  it('reports each status in init and through /mcp, and leaves no server process behind', async () => {
    const mod = mcp({
      home: dirs.home, disabled: ['off'],
      servers: { fixture: stdio(), missing: { command: 'modloop-no-such-command-x' }, off: stdio(), bad: { type: 'http', url: 'not a url' } },
    })
    const run = await runScript([{ reply: [use('mcp__fixture__pid')] }, { reply: 'done' }], 'go', { cwd: dirs.project, mods: [toolsMod(), mod] })
    expect(initOf(run.messages).mcp_servers).toEqual([
      { name: 'fixture', status: 'connected', source: 'dynamic' }, { name: 'missing', status: 'failed', source: 'dynamic' }, { name: 'off', status: 'disabled', source: 'dynamic' }, { name: 'bad', status: 'failed', source: 'dynamic' },
    ])
    const pid = Number(resultText(toolResults(run.requests, 1)[0]!))
    expect(isAlive(pid)).toBe(false)

    const listing = await runScript([], '/mcp', { cwd: dirs.project, mods: [toolsMod(), mod] })
    const text = listing.result.result as string
    expect(text).toContain('fixture (config): connected, 13 tools')
    expect(text).toContain('    mcp__fixture__echo (read-only)')
    expect(text).toContain('    mcp__fixture__crash\n')
    expect(text).toMatch(/missing \(config\): failed - .*the command was not found/)
    expect(text).toContain("off (config): disabled - listed in the mcp mod's disabled option")
    expect(text).toMatch(/bad \(config\): failed - .*"url"/)
    expect(listing.requests).toHaveLength(0)
  })
})
