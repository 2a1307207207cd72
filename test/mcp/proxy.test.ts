import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLoggingProxy, type LoggingProxy } from '../helpers/logging-proxy.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { mcp, resultText, startHttpFixture, tempDirs, toolResults } from './helpers.js'

let dirs: Awaited<ReturnType<typeof tempDirs>>
let http: Awaited<ReturnType<typeof startHttpFixture>>
let proxy: LoggingProxy
beforeAll(async () => { [dirs, http, proxy] = await Promise.all([tempDirs(), startHttpFixture(), startLoggingProxy()]) })
afterAll(async () => { await Promise.all([dirs.remove(), http.close(), proxy.close()]) })

const echo = [{ reply: [{ tool_use: { name: 'mcp__web__echo', input: { text: 'hi' } } }] }, { reply: 'done' }]

/** One echo call to the server at `url` of `type`, with the session's environment `env`; the model's own API is exempt from the proxy. */
async function callEcho(type: 'http' | 'sse', url: string, env: Record<string, string>): Promise<string> {
  const run = await runScript(echo, 'go', { cwd: dirs.project, env: { NO_PROXY: '127.0.0.1', ...env }, mods: [toolsMod(), mcp({ home: dirs.home, servers: { web: { type, url } } })] })
  return resultText(toolResults(run.requests, 1)[0]!)
}

// The proxy reaches every host on 127.0.0.1, so a host no resolver knows is reached only through it.
const viaName = (url: string) => url.replace('127.0.0.1', 'mcp.test')

describe('MCP servers over HTTP behind a proxy, as Claude Code reaches them', () => {
  it('sends a streamable HTTP server\'s requests through HTTP_PROXY', async () => {
    proxy.hits.length = 0
    expect(await callEcho('http', viaName(http.url), { HTTP_PROXY: proxy.url })).toBe('echo: hi')
    const url = viaName(http.url)
    expect(proxy.hits.filter((h) => h.method === 'POST').map((h) => h.url)).toContain(url)
    expect(proxy.hits.every((h) => h.url === url)).toBe(true)
  })

  it('opens an SSE server\'s stream and posts its messages through HTTPS_PROXY', async () => {
    proxy.hits.length = 0
    expect(await callEcho('sse', viaName(http.sseUrl), { HTTPS_PROXY: proxy.url })).toBe('echo: hi')
    expect(proxy.hits[0]).toMatchObject({ method: 'GET', url: viaName(http.sseUrl) })
    expect(proxy.hits.slice(1).map((h) => h.method)).toContain('POST')
  })

  it('connects directly to a server NO_PROXY names', async () => {
    proxy.hits.length = 0
    expect(await callEcho('http', http.url, { HTTP_PROXY: proxy.url })).toBe('echo: hi')
    expect(await callEcho('sse', http.sseUrl, { HTTP_PROXY: proxy.url })).toBe('echo: hi')
    expect(proxy.hits).toEqual([])
  })
})
