import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import bash from '../../mods/bash/index.js'
import permissions from '../../mods/permissions/index.js'
import { cmd, json, makeBox, run, writeSettings, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

describe('permission_denials', () => {
  it('records the input the permission check refused: a PreToolUse rewrite, not the model\'s original', async () => {
    const rewrite = cmd(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'rm keep.txt' } } }))
    await writeSettings(box, { PreToolUse: [{ matcher: 'Bash', hooks: [rewrite] }] }, join(box.project, '.claude', 'settings.json'), {
      permissions: { deny: ['Bash(rm *)'] },
    })
    const perms = defineMod({ ...permissions, register: (on, _o, $) => permissions.register(on, permissions.options!.parse({ home: box.home, trustStore: box.store }), $) })
    const r = await run(box, [{ reply: [{ tool_use: { id: 'toolu_ls', name: 'Bash', input: { command: 'ls' } } }] }, { reply: 'ok' }], 'go', { mods: [bash, perms] })
    expect(r.result.permission_denials).toEqual([{ tool_name: 'Bash', tool_use_id: 'toolu_ls', tool_input: { command: 'rm keep.txt' } }])
  })
})
