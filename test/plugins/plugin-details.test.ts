import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { marketplaceDirs, plugin } from './marketplace-fixture.js'
import { writeTree } from './fixture.js'

let dir: string
let home: string
let project: string
let market: string
beforeEach(async () => {
  ;({ dir, home, project, market } = await marketplaceDirs('modloop-plugin-details-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const run = (...args: string[]) => plugin(args, project, home)

describe('modloop plugin details', () => {
  it('lists the components of an installed plugin: commands and skills as skills, agents, hook events, MCP servers', async () => {
    await writeTree(join(market, 'plugins/hello'), {
      'hooks/hooks.json': JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }], Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } }),
      '.mcp.json': JSON.stringify({ mcpServers: { srv: { command: 'node' } } }),
    })
    await run('marketplace', 'add', market)
    await run('install', 'hello@localmp')
    expect(await run('details', 'hello')).toEqual({
      code: 0, err: '',
      out: [
        'hello 1.0.0', '  Description: Says hello', '  Source: hello@localmp', '', 'Component inventory',
        '  Skills (2)  hi, greet', '  Agents (1)  helper', '  Hooks (2)  PreToolUse, Stop  (harness-only — no model context cost)',
        '  MCP servers (1)  srv  (tool schemas resolved at runtime; not counted)', '  LSP servers (0)', '',
      ].join('\n'),
    })
    expect(await run('details', 'nope')).toEqual({ code: 1, err: '', out: 'Plugin "nope" not found. Run `modloop plugin list` to see installed plugins, or pass --plugin-dir <path> to load one from disk.\n' })
  })
})
