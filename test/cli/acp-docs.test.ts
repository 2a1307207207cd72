import { readdir, readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { describe, expect, it } from 'vitest'
import { ACP_OPTIONS } from '../../cli/acp/options.js'
import { toolInfo } from '../../cli/acp/tool-info.js'

// docs/acp.md is held to the code: its editor settings parse as `modloop acp` command lines, its
// mapping names exactly the updates the front end sends, and its tool kinds are the ones it gives.
const page = await readFile(new URL('../../docs/acp.md', import.meta.url), 'utf8')
const section = (title: string) => page.split(`## ${title}`)[1]!.split('\n## ')[0]!
const rows = (text: string) => text.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| ---')).slice(1).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()))

describe('docs/acp.md', () => {
  it('each agent in the editor settings is `modloop acp` with options it accepts', () => {
    const json = /```json\n([\s\S]*?)```/.exec(section('Adding it to an editor'))![1]!
    const agents = Object.values((JSON.parse(json) as { agent_servers: Record<string, { command: string; args: string[] }> }).agent_servers)
    expect(agents.length).toBeGreaterThan(0)
    for (const a of agents) {
      expect(a.command).toBe('modloop')
      expect(a.args[0]).toBe('acp')
      expect(() => parseArgs({ args: a.args.slice(1), options: ACP_OPTIONS, strict: true, allowPositionals: false })).not.toThrow()
    }
  })

  it('the options it lists are the options the command takes', () => {
    const listed = new Set([...section('Adding it to an editor').matchAll(/`(--[a-z-A-Z]+)`/g)].map((m) => m[1]!.slice(2)))
    for (const name of Object.keys(ACP_OPTIONS)) expect(listed, `--${name}`).toContain(name)
  })

  it('the mapping names every update the front end sends, and only those', async () => {
    const dir = new URL('../../cli/acp/', import.meta.url)
    const sources = await Promise.all((await readdir(dir)).map((f) => readFile(new URL(f, dir), 'utf8')))
    const sent = new Set(sources.flatMap((s) => [...s.matchAll(/sessionUpdate: '([a-z_]+)'/g)].map((m) => m[1]!)))
    const documented = new Set(rows(section('From modloop\'s messages to session updates').split('Tool kinds:')[0]!).map((r) => /`([a-z_]+)`/.exec(r[1]!)![1]!))
    expect(documented).toEqual(sent)
  })

  it('the tool kinds are those the tool calls carry', () => {
    const table = rows(section('From modloop\'s messages to session updates').split('Tool kinds:')[1]!)
    expect(table.length).toBeGreaterThan(5)
    for (const [tool, kind] of table) expect(toolInfo(tool!.startsWith('any other') ? 'mcp__srv__tool' : tool!, {}).kind, tool).toBe(kind)
  })
})
