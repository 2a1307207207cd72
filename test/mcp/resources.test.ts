import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { query } from '../../entry.js'
import { startFakeAnthropic } from '../../testing/fake-anthropic.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { mcp, resultText, stdio, tempDirs, toolResults } from './helpers.js'

const DOCS = fileURLToPath(new URL('./fixtures/resources-server.mjs', import.meta.url))
const docs = (env: Record<string, string> = {}) => ({ command: process.execPath, args: [DOCS], env })

let dirs: Awaited<ReturnType<typeof tempDirs>>
beforeAll(async () => { dirs = await tempDirs() })
afterAll(() => dirs.remove())

const use = (name: string, input: Record<string, unknown> = {}) => ({ tool_use: { name, input } })
const names = (request: { body: any }) => (request.body.tools as { name: string }[]).map((t) => t.name)

describe('MCP resources', () => {
  it('ListMcpResourcesTool and ReadMcpResourceTool: lists, text, binary saved to a file, and the answers Claude Code gives', async () => {
    const mod = mcp({ home: dirs.home, servers: { docs: docs({ FIXTURE_BIG_CHARS: '2000' }), fixture: stdio() } })
    const run = await runScript([
      { reply: [use('ListMcpResourcesTool'), use('ListMcpResourcesTool', { server: 'fixture' }), use('ListMcpResourcesTool', { server: 'nope' })] },
      { reply: [use('ReadMcpResourceTool', { server: 'docs', uri: 'docs://guide' }), use('ReadMcpResourceTool', { server: 'docs', uri: 'docs://logo.png' }), use('ReadMcpResourceTool', { server: 'docs', uri: 'docs://missing' })] },
      { reply: [use('ReadMcpResourceTool', { server: 'fixture', uri: 'x://y' }), use('ReadMcpResourceTool', { server: 'docs', uri: 'docs://big' })] },
      { reply: 'done' },
    ], 'go', { cwd: dirs.project, mods: [toolsMod(), mod], env: { MODLOOP_HOME: dirs.home, MAX_MCP_OUTPUT_TOKENS: '200' } })
    expect(run.result.subtype).toBe('success')
    expect(names(run.requests[0]!)).toEqual(expect.arrayContaining(['ListMcpResourcesTool', 'ReadMcpResourceTool', 'mcp__fixture__echo']))

    const [all, none, unknown] = toolResults(run.requests, 1)
    expect(JSON.parse(resultText(all!))).toEqual([
      { uri: 'docs://guide', name: 'guide', title: 'The guide', description: 'How to use it', mimeType: 'text/markdown', server: 'docs' },
      { uri: 'docs://logo.png', name: 'logo', description: 'A logo', mimeType: 'image/png', server: 'docs' },
      { uri: 'docs://big', name: 'big', mimeType: 'text/plain', server: 'docs' },
    ])
    expect(resultText(none!)).toBe('No resources found. MCP servers may still provide tools even if they have no resources.')
    expect(unknown).toMatchObject({ is_error: true, content: 'Server "nope" not found. Available servers: docs, fixture' })

    const [text, blob, missing] = toolResults(run.requests, 2)
    expect(JSON.parse(resultText(text!))).toEqual({ contents: [{ uri: 'docs://guide', mimeType: 'text/markdown', text: '# Guide\nUse it well.' }] })
    const saved = JSON.parse(resultText(blob!)).contents[0]
    expect(saved.text).toBe(`[Resource from docs at docs://logo.png] Binary content (image/png, 7 bytes) saved to ${saved.blobSavedTo}`)
    expect([...readFileSync(saved.blobSavedTo)]).toEqual([137, 80, 78, 71, 1, 2, 3])
    expect(saved.blobSavedTo).toMatch(/\.png$/)
    expect(missing!.is_error).toBeUndefined()
    expect(resultText(missing!)).toBe('Resource not found: docs://missing - it may have been deleted or the URI is stale. Re-run ListMcpResourcesTool to refresh.')

    const [noResources, big] = toolResults(run.requests, 3)
    expect(noResources).toMatchObject({ is_error: true, content: 'Server "fixture" does not support resources' })
    // 200 tokens are 800 characters: the whole of it is in a file the model is pointed to.
    const file = /saved to: (\S+)/.exec(resultText(big!))![1]!
    expect(JSON.parse(readFileSync(file, 'utf8')).contents[0].text).toBe('y'.repeat(2000))
  })

  it('are not offered when no server has resources; Query.readMcpResource reads one and names what fails', async () => {
    const plain = await runScript([{ reply: 'ok' }], 'go', { cwd: dirs.project, mods: [toolsMod(), mcp({ home: dirs.home, servers: { fixture: stdio() } })] })
    expect(names(plain.requests[0]!)).not.toContain('ListMcpResourcesTool')

    const server = await startFakeAnthropic({ script: [{ reply: 'ok' }] })
    const q = query({ prompt: 'go', options: { cwd: dirs.project, bare: true, mods: [mcp({ home: dirs.home, servers: { docs: docs(), fixture: stdio() } })], env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'x' } } })
    try {
      let checked = false
      for await (const m of q) {
        if (m.type !== 'system' || m.subtype !== 'init') continue
        expect(await q.readMcpResource('docs', 'docs://guide')).toEqual({ contents: [{ uri: 'docs://guide', mimeType: 'text/markdown', text: '# Guide\nUse it well.' }] })
        await expect(q.readMcpResource('fixture', 'x://y')).rejects.toThrow('MCP server "fixture" does not offer resources')
        await expect(q.readMcpResource('nope', 'x://y')).rejects.toThrow('no MCP server is named "nope"')
        checked = true
      }
      expect(checked).toBe(true)
    } finally {
      await server.close()
    }
  })
})
