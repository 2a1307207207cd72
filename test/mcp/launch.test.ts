import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { initOf, mcp, resultText, startHttpFixture, stdio, tempDirs, toolResults } from './helpers.js'

let dirs: Awaited<ReturnType<typeof tempDirs>>
beforeAll(async () => { dirs = await tempDirs() })
afterAll(() => dirs.remove())

/** A project folder with a modloop config (the mcp mod reading `.claude.json` from the temp home). */
async function project(name: string, config: Record<string, unknown>, mcpJson?: unknown): Promise<string> {
  const cwd = join(dirs.project, name)
  await mkdir(cwd, { recursive: true })
  await writeFile(join(cwd, 'modloop.config.json'), JSON.stringify({ mods: [['mcp', { home: dirs.home }]], ...config }))
  if (mcpJson) await writeFile(join(cwd, '.mcp.json'), JSON.stringify(mcpJson))
  return cwd
}

const echo = (server: string, text: string) => ({ reply: [{ tool_use: { name: `mcp__${server}__echo`, input: { text } } }] })

describe("the config's mcpServers key and the launch options", () => {
  it("connects the config's top-level mcpServers through openSession", async () => {
    const cwd = await project('config', { mcpServers: { fromconfig: stdio() } })
    const run = await runScript([echo('fromconfig', 'hi'), { reply: 'done' }], 'go', { bare: false, mods: [], cwd })
    expect(run.error).toBeUndefined()
    expect(initOf(run.messages).mcp_servers).toEqual([{ name: 'fromconfig', status: 'connected', source: 'dynamic' }])
    expect(resultText(toolResults(run.requests, 1)[0]!)).toBe('echo: hi')
  })

  it('strictMcpConfig: only the query mcpServers connect; the config, .mcp.json and .claude.json are not read', async () => {
    // Servers nothing listens for: they fail at once, and only their names matter here.
    const nowhere = { type: 'http', url: 'http://127.0.0.1:1/mcp' }
    const cwd = await project('strict', { mcpServers: { fromconfig: nowhere } }, { mcpServers: { fromproject: nowhere } })
    await writeFile(join(dirs.home, '.claude.json'), JSON.stringify({ mcpServers: { fromuser: nowhere } }))
    try {
      const loose = await runScript([{ reply: 'ok' }], 'go', { bare: false, mods: [], cwd, mcpServers: { fromquery: stdio() } as never })
      expect(initOf(loose.messages).mcp_servers.map((s: { name: string }) => s.name).sort()).toEqual(['fromconfig', 'fromproject', 'fromquery', 'fromuser'])
      const strict = await runScript([echo('fromquery', 'only'), { reply: 'done' }], 'go', { bare: false, mods: [], cwd, mcpServers: { fromquery: stdio() } as never, strictMcpConfig: true })
      expect(initOf(strict.messages).mcp_servers).toEqual([{ name: 'fromquery', status: 'connected', source: 'dynamic' }])
      expect(resultText(toolResults(strict.requests, 1)[0]!)).toBe('echo: only')
    } finally {
      await writeFile(join(dirs.home, '.claude.json'), '{}')
    }
  })

  it('a strict run with no query servers has none at all', async () => {
    const run = await runScript([{ reply: 'ok' }], 'go', { cwd: dirs.project, mods: [toolsMod(), mcp({ home: dirs.home, servers: { fromconfig: stdio() } })], strictMcpConfig: true })
    expect(initOf(run.messages).mcp_servers).toEqual([])
  })
})

describe('modloop -p --mcp-config / --strict-mcp-config', () => {
  it('reads servers from a file and from inline JSON (repeatable), and --strict-mcp-config drops the others', async () => {
    const http = await startHttpFixture()
    try {
      const cwd = await project('cli', { mcpServers: { fromconfig: stdio() } })
      await writeFile(join(cwd, 'servers.json'), JSON.stringify({ mcpServers: { fromfile: stdio() } }))
      const inline = JSON.stringify({ mcpServers: { web: { type: 'http', url: http.url } } })
      const script = [echo('fromfile', 'a'), echo('web', 'b'), { reply: 'done' }]
      const r = await runCli(['-p', 'go', '--output-format', 'stream-json', '--mcp-config', 'servers.json', '--mcp-config', inline, '--strict-mcp-config'], { script, cwd })
      expect(r.code).toBe(0)
      const init = r.out.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((m) => m.type === 'system' && m.subtype === 'init')
      expect(init.mcp_servers).toEqual([{ name: 'fromfile', status: 'connected', source: 'dynamic' }, { name: 'web', status: 'connected', source: 'dynamic' }])
      expect(resultText(toolResults(r.requests as never, 1)[0]!)).toBe('echo: a')
      expect(resultText(toolResults(r.requests as never, 2)[0]!)).toBe('echo: b')
    } finally {
      await http.close()
    }
  })

  it('a file that cannot be read or a config without mcpServers is a usage error naming it', async () => {
    const cwd = await project('cli-bad', {})
    const missing = await runCli(['-p', 'go', '--mcp-config', 'nope.json'], { script: [], cwd })
    expect(missing.code).toBe(1)
    expect(missing.err).toContain(`--mcp-config: ${join(cwd, 'nope.json')} cannot be read (ENOENT)`)
    const shapeless = await runCli(['-p', 'go', '--mcp-config', '{"servers":{}}'], { script: [], cwd })
    expect(shapeless.code).toBe(1)
    expect(shapeless.err).toMatch(/--mcp-config: the JSON given to --mcp-config: "mcpServers": .*expected \{ "mcpServers"/)
  })
})
