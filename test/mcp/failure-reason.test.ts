import { readFile, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { isAlive, tempDirs } from './helpers.js'

let dirs: Awaited<ReturnType<typeof tempDirs>>
beforeAll(async () => { dirs = await tempDirs() })
afterAll(() => dirs.remove())

/** A port nothing listens on: one the system gave out and that was closed again. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  await new Promise((r) => server.close(r))
  return port
}

describe('a server that fails in -p', () => {
  it('is named on stderr with why, beside its failed status in init', async () => {
    await writeFile(join(dirs.home, '.claude.json'), '{}')
    await writeFile(join(dirs.project, 'modloop.config.json'), JSON.stringify({ mods: [['mcp', { home: dirs.home }]], mcpServers: { missing: { command: join(dirs.project, 'no-such-server') } } }))
    const r = await runCli(['-p', 'go', '--output-format', 'stream-json', '--verbose'], { script: [{ reply: 'ok' }], cwd: dirs.project, env: { MODLOOP_HOME: dirs.home } })
    expect(r.code).toBe(0)
    const init = r.out.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((m) => m.subtype === 'init')
    expect(init.mcp_servers).toEqual([{ name: 'missing', status: 'failed', source: 'dynamic' }])
    expect(r.err).toMatch(/MCP server "missing" failed: .*not found/)
  })

  it('says a server exited while starting, with what it printed, and that one never answered within MCP_TIMEOUT (and ends it), and why an HTTP server could not be reached', async () => {
    await writeFile(join(dirs.home, '.claude.json'), '{}')
    const pidFile = join(dirs.home, 'mute.pid')
    const node = (code: string) => ({ command: process.execPath, args: ['-e', code] })
    await writeFile(join(dirs.project, 'modloop.config.json'), JSON.stringify({
      mods: [['mcp', { home: dirs.home }]],
      mcpServers: {
        exits: node("process.stderr.write('cannot open /data/app.db\\n'); process.exit(2)"),
        // It outlives its closed stdin: only a signal ends it.
        mute: node(`require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`),
        refused: { type: 'http', url: `http://127.0.0.1:${await closedPort()}/mcp` },
      },
    }))
    const r = await runCli(['-p', 'go'], { script: [{ reply: 'ok' }], cwd: dirs.project, env: { MODLOOP_HOME: dirs.home, MCP_TIMEOUT: '500' } })
    expect(r.code).toBe(0)
    expect(r.err).toContain('MCP server "exits" failed: the server exited before it finished starting (stderr: cannot open /data/app.db)')
    expect(r.err).toContain('MCP server "mute" failed: it did not answer the MCP handshake within 500 ms (MCP_TIMEOUT)')
    // The server that never answered is ended with the attempt, not left running.
    expect(isAlive(Number(await readFile(pidFile, 'utf8')))).toBe(false)
    expect(r.err).toMatch(/MCP server "refused" failed: fetch failed \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)/)
  })
})
