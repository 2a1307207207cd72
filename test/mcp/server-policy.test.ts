import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runScript, toolsMod } from '../loop/helpers.js'
import { initOf, mcp, tempDirs } from './helpers.js'

let dirs: Awaited<ReturnType<typeof tempDirs>>
beforeAll(async () => { dirs = await tempDirs() })
afterAll(() => dirs.remove())

const servers = {
  named: { command: '/nonexistent/named' },
  tool: { command: '/nonexistent/tool', args: ['--serve'] },
  remote: { type: 'http', url: 'http://127.0.0.1:1/mcp' },
  other: { type: 'http', url: 'http://example.invalid/mcp' },
}

async function started(policy: Record<string, unknown>, settings: Record<string, unknown>) {
  const managedDir = join(dirs.home, 'managed')
  await mkdir(managedDir, { recursive: true })
  await writeFile(join(managedDir, 'managed-settings.json'), JSON.stringify(policy))
  const lines: string[] = []
  const run = await runScript([{ reply: 'ok' }], 'go', { cwd: dirs.project, settings, log: (l) => lines.push(l), mods: [toolsMod(), mcp({ home: dirs.home, managedDir, servers })] })
  return { names: (initOf(run.messages).mcp_servers as { name: string }[]).map((s) => s.name), warnings: lines.filter((l) => l.includes('blocked')) }
}

describe("the settings' allowedMcpServers and deniedMcpServers", () => {
  it('leave out the servers they block, with a warning naming them; the lists of every source add up, a deny entry winning', async () => {
    const policy = { allowedMcpServers: [{ serverCommand: ['/nonexistent/tool', '--serve'] }, { serverUrl: 'http://127.0.0.1:*' }] }
    const r = await started(policy, { allowedMcpServers: [{ serverName: 'named' }], deniedMcpServers: [{ serverUrl: 'http://127.0.0.1:1/*' }] })
    // A command server must match a serverCommand entry once the list has one: its name alone does not let "named" in.
    expect(r.names).toEqual(['tool'])
    expect(r.warnings).toEqual([expect.stringContaining("MCP servers blocked by the settings' allowedMcpServers or deniedMcpServers, not started: named, remote, other")])
  })

  it('an allowlist of names only lets those names in; with allowManagedMcpServersOnly, only policy entries count', async () => {
    expect((await started({ allowedMcpServers: [{ serverName: 'other' }] }, { allowedMcpServers: [{ serverName: 'named' }] })).names).toEqual(['named', 'other'])
    expect((await started({ allowedMcpServers: [{ serverName: 'other' }], allowManagedMcpServersOnly: true }, { allowedMcpServers: [{ serverName: 'named' }] })).names).toEqual(['other'])
    expect((await started({ allowedMcpServers: [] }, {})).names).toEqual([])
  })
})
