import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

const server = { command: process.execPath, args: [fileURLToPath(new URL('../mcp/fixtures/raw-server.mjs', import.meta.url))] }

/** A project with MCP servers in every settings scope: the user's and the project's entry in ~/.claude.json, and .mcp.json. */
function mcpProject() {
  const cwd = mkdtempSync(join(tmpdir(), 'modloop-restricted-mcp-'))
  const home = join(cwd, 'home')
  mkdirSync(home)
  writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { proj: server } }))
  writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: { usr: server }, projects: { [cwd]: { mcpServers: { loc: server } } } }))
  return { cwd, env: { HOME: home, MODLOOP_HOME: join(home, 'modloop') } }
}

const servers = (r: Awaited<ReturnType<typeof runCli>>) =>
  [...new Set((r.requests[0]!.body as { tools: { name: string }[] }).tools.map((t) => t.name).filter((n) => n.startsWith('mcp__')).map((n) => n.split('__')[1]))].sort()

describe('--setting-sources and MCP servers', () => {
  it('picks the scopes whose servers start: none of the files with "", .mcp.json alone with project; --mcp-config ones always', async () => {
    const p = mcpProject()
    const cfg = JSON.stringify({ mcpServers: { cfg: server } })
    const none = await runCli(['-p', 'hi', '--setting-sources', '', '--mcp-config', cfg], { script: [{ reply: 'ok' }], cwd: p.cwd, env: p.env })
    expect(none.code, none.err).toBe(0)
    expect(servers(none)).toEqual(['cfg'])
    const project = await runCli(['-p', 'hi', '--setting-sources', 'project', '--mcp-config', cfg], { script: [{ reply: 'ok' }], cwd: p.cwd, env: p.env })
    expect(servers(project)).toEqual(['cfg', 'proj'])
  })
})
