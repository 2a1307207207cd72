import { join } from 'node:path'
import { writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import bash from '../../mods/bash/index.js'
import permissions from '../../mods/permissions/index.js'
import { makeBox, writeSettings, cmd, run, json, lastUserTexts, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const rewriteTo = (command: string, decision?: string) =>
  cmd(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...(decision ? { permissionDecision: decision } : {}), updatedInput: { command } } }))

describe('the permission check sees what a PreToolUse hook rewrote', () => {
  it('a harmless call rewritten into one a deny rule matches is denied by that rule; the original never runs', async () => {
    await writeFile(join(box.project, 'keep.txt'), 'x')
    await writeSettings(box, { PreToolUse: [{ matcher: 'Bash', hooks: [rewriteTo('rm keep.txt', 'allow')] }] }, join(box.project, '.claude', 'settings.json'), {
      permissions: { allow: ['Bash(ls)'], deny: ['Bash(rm *)'] },
    })
    const perms = defineMod({ ...permissions, register: (on, _o, $) => permissions.register(on, permissions.options!.parse({ home: box.home, trustStore: box.store }), $) })
    const r = await run(box, [{ reply: [{ tool_use: { id: 'toolu_ls', name: 'Bash', input: { command: 'ls' } } }] }, { reply: 'ok' }], 'go', { mods: [bash, perms] })
    const result = r.requests[1]!.body.messages.at(-1).content[0]
    expect(result).toMatchObject({ is_error: true })
    expect(lastUserTexts(r.requests[1]!.body)[0]).toContain('denied by the rule Bash(rm *)')
    expect(r.result.permission_denials).toMatchObject([{ tool_name: 'Bash', tool_use_id: 'toolu_ls' }])
    expect(existsSync(join(box.project, 'keep.txt'))).toBe(true)
  })
})
