import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { setTrust } from '../../mods/permissions/trust-store.js'
import { needsTrust } from '../../mods/terminal-ui/trust-check.js'

async function folder(files: Record<string, unknown>): Promise<{ cwd: string; env: Record<string, string> }> {
  const base = await mkdtemp(join(tmpdir(), 'modloop-trust-check-'))
  const cwd = join(base, 'project')
  await mkdir(join(base, 'home'), { recursive: true })
  await mkdir(cwd, { recursive: true })
  for (const [name, json] of Object.entries(files)) await writeFile(join(cwd, name), JSON.stringify(json))
  return { cwd, env: { HOME: join(base, 'home'), MODLOOP_HOME: join(base, 'home') } }
}

describe('what makes the terminal ask to trust a folder', () => {
  it('MCP servers in .mcp.json, even when the folder has no other project code; asked once', async () => {
    const { cwd, env } = await folder({ '.mcp.json': { mcpServers: { tools: { command: 'node', args: ['server.js'] } } } })
    const asking = await needsTrust(cwd, env)
    expect(asking?.reasons).toEqual(['MCP servers in .mcp.json'])
    await setTrust(asking!.store, cwd, true)
    expect(await needsTrust(cwd, env)).toBeUndefined()
  })

  it('MCP servers in the .mcp.json of a folder above, which a session here starts too', async () => {
    const { cwd, env } = await folder({})
    await writeFile(join(dirname(cwd), '.mcp.json'), JSON.stringify({ mcpServers: { tools: { command: 'node' } } }))
    expect((await needsTrust(cwd, env))?.reasons).toEqual([`MCP servers in ${join('..', '.mcp.json')}`])
  })

  it('a status line command in the project settings, which the terminal would run at once', async () => {
    const { cwd, env } = await folder({})
    await mkdir(join(cwd, '.claude'))
    await writeFile(join(cwd, '.claude', 'settings.local.json'), JSON.stringify({ statusLine: { type: 'command', command: 'curl evil' } }))
    expect((await needsTrust(cwd, env))?.reasons).toEqual(['a status line command (statusLine) in .claude/settings.local.json'])
  })

  it('an .mcp.json with no servers is no reason', async () => {
    const { cwd, env } = await folder({ '.mcp.json': { mcpServers: {} } })
    expect(await needsTrust(cwd, env)).toBeUndefined()
  })
})

describe('frontmatter hooks of project commands, skills and agents', () => {
  it('are a reason to ask; the same files without hooks are not', async () => {
    const { cwd, env } = await folder({})
    const hooks = 'hooks:\n  PreToolUse:\n    - hooks: [{type: command, command: "true"}]\n'
    const files: Record<string, string> = {
      '.claude/commands/ship.md': `---\ndescription: Ship\n${hooks}---\nShip it.\n`,
      '.claude/skills/deploy/SKILL.md': `---\nname: deploy\ndescription: Deploy\n${hooks}---\nDeploy.\n`,
      '.claude/agents/rev.md': `---\nname: rev\ndescription: Reviews\n${hooks}---\nReview.\n`,
      '.claude/commands/plain.md': '---\ndescription: Plain\n---\nJust text.\n',
    }
    for (const [name, text] of Object.entries(files)) {
      await mkdir(join(cwd, name, '..'), { recursive: true })
      await writeFile(join(cwd, name), text)
    }
    expect((await needsTrust(cwd, env))?.reasons).toEqual([
      'hooks in the frontmatter of .claude/commands/ship.md',
      'hooks in the frontmatter of .claude/skills/deploy/SKILL.md',
      'hooks in the frontmatter of .claude/agents/rev.md',
    ])
  })
})

describe('a record of trusted folders that cannot be read', () => {
  it('matters only when the folder has something to ask about', async () => {
    const { cwd, env } = await folder({})
    await writeFile(join(env.MODLOOP_HOME!, 'trusted.json'), '{ not json')
    expect(await needsTrust(cwd, env)).toBeUndefined()
    await writeFile(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { tools: { command: 'node' } } }))
    await expect(needsTrust(cwd, env)).rejects.toThrow(/trusted\.json is not valid JSON/)
  })
})
