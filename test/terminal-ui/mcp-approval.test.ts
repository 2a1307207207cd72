import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURE } from '../mcp/helpers.js'
import { hasTmux, project, send, tmuxSuite } from './suite.js'

const suite = tmuxSuite(import.meta.filename)
const open = suite.open
const server = () => suite.state.server!
const toolsOf = (body: Record<string, unknown>) => (body.tools as { name: string }[]).map((t) => t.name)

describe.runIf(hasTmux)('project MCP servers in the terminal (tmux)', () => {
  it('asks about a new server once the folder is trusted, and again when it changes', async () => {
    const mcpJson = (args: string[]) => JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [FIXTURE, ...args] } } })
    const where = await project({ '.mcp.json': mcpJson([]) })
    let p = await open({ steps: [{ reply: 'first' }] }, where, { waitFor: 'Do you trust the files in' })
    await p.keys('1')
    await p.waitFor('An MCP server of .mcp.json, new or changed, not approved yet:')
    await p.waitFor(`fixture: ${process.execPath}`)
    await p.keys('1')
    await p.waitFor('Approved 1 MCP server of .mcp.json')
    await send(p, 'hello')
    await p.waitFor('first')
    expect(toolsOf(server().requests[0]!.body)).toContain('mcp__fixture__echo')
    expect(await readFile(join(where.home, 'trusted.json'), 'utf8')).toContain('"mcpServers"')
    await p.keys('C-d')
    await p.waitFor('[exited 0]')

    // The same name now runs with other arguments: a new server, asked about; declined, it stays off.
    await writeFile(join(where.cwd, '.mcp.json'), mcpJson(['--changed']))
    p = await open({ steps: [{ reply: 'second' }] }, where, { waitFor: 'An MCP server of .mcp.json, new or changed' })
    await p.keys('2')
    await p.waitFor('Not approved: this session runs without it')
    await send(p, 'hello again')
    await p.waitFor('second')
    expect(toolsOf(server().requests[0]!.body)).not.toContain('mcp__fixture__echo')
  })
})
