import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runScript } from '../loop/helpers.js'
import { makeBox, lastUserTexts, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

/** A plugin in the Claude Code layout whose hooks/hooks.json runs scripts of its own directory. */
async function plugin(root: string): Promise<void> {
  await mkdir(join(root, '.claude-plugin'), { recursive: true })
  await mkdir(join(root, 'hooks'), { recursive: true })
  await writeFile(join(root, '.claude-plugin', 'plugin.json'), JSON.stringify({
    name: 'fmt@tools', version: '1.0.0',
    userConfig: { level: { type: 'string', default: 'relaxed' }, width: { type: 'number', default: 80 } },
  }))
  await writeFile(join(root, 'say.sh'), [
    'echo "root=$CLAUDE_PLUGIN_ROOT"',
    'echo "data=$CLAUDE_PLUGIN_DATA"',
    '[ -d "$CLAUDE_PLUGIN_DATA" ] && echo "data dir exists"',
    'echo "level=$CLAUDE_PLUGIN_OPTION_LEVEL width=$CLAUDE_PLUGIN_OPTION_WIDTH arg=$1"',
  ].join('\n'))
  await writeFile(join(root, 'hooks', 'hooks.json'), JSON.stringify({
    description: 'says where it runs',
    hooks: {
      UserPromptSubmit: [{ hooks: [
        // Exec form: ${user_config.KEY} is substituted into the arguments.
        { type: 'command', command: 'sh', args: ['${CLAUDE_PLUGIN_ROOT}/say.sh', '${user_config.level}'] },
      ] }],
    },
  }))
}

describe('plugin hooks through the mod in a session', () => {
  it('a plugin hooks.json hook runs with CLAUDE_PLUGIN_ROOT, CLAUDE_PLUGIN_DATA, CLAUDE_PLUGIN_OPTION_* and ${user_config.KEY}', async () => {
    const root = join(box.root, 'plugins', 'fmt')
    await plugin(root)
    await writeFile(join(box.project, 'modloop.config.json'), JSON.stringify({
      mods: [[root, { level: 'strict' }], ['shell-hooks', { home: box.home, managedDir: false, trustStore: box.store }]],
    }))
    const r = await runScript([{ reply: 'ok' }], 'hello', { bare: false, mods: [], cwd: box.project, trustWorkspace: true })
    expect(r.error).toBeUndefined()
    const data = join(box.home, '.claude', 'plugins', 'data', 'fmt-tools-inline')
    const context = lastUserTexts(r.requests[0]!.body).join('\n')
    expect(context).toContain(`root=${root}`)
    expect(context).toContain(`data=${data}`)
    expect(context).toContain('data dir exists')
    expect(context).toContain('level=strict width=80 arg=strict')
    expect(existsSync(data)).toBe(true)
  })
})
