import { join } from 'node:path'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import autoMode from '../../mods/auto-mode/index.js'
import { permissionsWith, sandbox, type Sandbox } from '../permissions/helpers.js'
import { conversation } from './conversation.js'
import type { QueryOptions } from '../../runtime/options.js'

// Query.setMcpPermissionModeOverride: an MCP server's calls pinned to the default mode's asking or
// to auto mode's classifier, where the session's mode would let them run unasked.

let box: Sandbox
beforeAll(async () => { box = await sandbox() })
afterAll(() => box.remove())

/** Two servers' tools, as the mcp mod names them, and the servers' status; `ran` records the calls that ran. */
function servers(ran: string[]) {
  return defineMod({
    name: 'fake-servers',
    provides: ['serverStatus'],
    register(on, _o, $) {
      $.capability.provide('serverStatus', () => [{ name: 'docs', status: 'connected' }, { name: 'docs__v2', status: 'connected' }])
      on('session.start', async ($, e, next) => {
        for (const name of ['mcp__docs__lookup', 'mcp__docs__v2__lookup', 'mcp__other__lookup']) {
          await $.tool.register({ name, description: 'Look something up', input: z.object({}), call: () => { ran.push(name); return { result: `${name} ran` } } } as never)
        }
        return next(e)
      })
    },
  })
}

/** The auto-mode mod, its classifier the small model. */
const autoMod = () => defineMod({ ...autoMode, options: z.any(), register: (on, _o, $) => autoMode.register(on, autoMode.options!.parse({ model: 'claude-haiku-4-5', home: box.home }), $) })

const call = (name: string) => ({ reply: [{ tool_use: { name, input: {} } }] })
const verdict = (decision: string, reason: string) => ({ reply: JSON.stringify({ decision, reason }), model: 'claude-haiku-4-5' })

function setup(ran: string[], asked: string[], permissionMode: string, extra: NonNullable<QueryOptions['mods']> = []): QueryOptions {
  return {
    cwd: box.project,
    env: { MODLOOP_HOME: box.modloopHome },
    permissionMode: permissionMode as 'default',
    allowDangerouslySkipPermissions: true,
    canUseTool: async (tool: string) => { asked.push(tool); return { behavior: 'deny' as const, message: 'not now' } },
    mods: [servers(ran), permissionsWith({ home: box.home, trustStore: join(box.root, 'trust.json') }), ...extra],
  }
}

describe('setMcpPermissionModeOverride', () => {
  it('a server pinned to default is asked about under bypassPermissions, other servers are not; null takes the pin away', async () => {
    const ran: string[] = []
    const asked: string[] = []
    const c = await conversation([
      call('mcp__docs__lookup'), { reply: 'one' },
      call('mcp__docs__lookup'), call('mcp__docs__v2__lookup'), call('mcp__other__lookup'), { reply: 'two' },
      call('mcp__docs__lookup'), { reply: 'three' },
    ], setup(ran, asked, 'bypassPermissions'))
    try {
      await c.say('look it up')
      expect(ran).toEqual(['mcp__docs__lookup'])
      await expect(c.q.setMcpPermissionModeOverride('docs', 'default')).resolves.toEqual({})
      const second = await c.say('again, everywhere')
      // `docs__v2` is a server of its own, not a tool of `docs`.
      expect(asked).toEqual(['mcp__docs__lookup'])
      expect(ran).toEqual(['mcp__docs__lookup', 'mcp__docs__v2__lookup', 'mcp__other__lookup'])
      expect(second.permission_denials.map((d) => d.tool_name)).toEqual(['mcp__docs__lookup'])
      await expect(c.q.setMcpPermissionModeOverride('docs', null)).resolves.toEqual({})
      await c.say('once more')
      expect(ran.at(-1)).toBe('mcp__docs__lookup')
      expect(asked).toHaveLength(1)
    } finally {
      await c.end()
    }
  })

  it('a pin never widens: in default mode a server pinned to auto is still asked about, and no classifier is consulted', async () => {
    const ran: string[] = []
    const asked: string[] = []
    const c = await conversation([call('mcp__docs__lookup'), { reply: 'asked' }], setup(ran, asked, 'default', [autoMod()]))
    try {
      await c.q.setMcpPermissionModeOverride('docs', 'auto')
      await c.say('look it up')
      expect(asked).toEqual(['mcp__docs__lookup'])
      expect(ran).toEqual([])
      expect(c.server.requests.map((r) => (r.body as any).model)).not.toContain('claude-haiku-4-5')
    } finally {
      await c.end()
    }
  })

  it('pinned to auto under bypassPermissions, a call goes to the classifier; pinned to default under auto, it goes to the approver instead', async () => {
    const ran: string[] = []
    const asked: string[] = []
    const c = await conversation([
      call('mcp__docs__lookup'), verdict('deny', 'looking things up is not wanted'), { reply: 'refused' },
    ], setup(ran, asked, 'bypassPermissions', [autoMod()]))
    try {
      await c.q.setMcpPermissionModeOverride('docs', 'auto')
      const result = await c.say('look it up')
      expect((c.server.requests[1]!.body as any).model).toBe('claude-haiku-4-5')
      expect(result.permission_denials.map((d) => d.tool_name)).toEqual(['mcp__docs__lookup'])
      expect(ran).toEqual([])
      expect(asked).toEqual([])
    } finally {
      await c.end()
    }
    const d = await conversation([call('mcp__docs__lookup'), { reply: 'asked' }], setup(ran, asked, 'auto', [autoMod()]))
    try {
      await d.q.setMcpPermissionModeOverride('docs', 'default')
      await d.say('look it up')
      expect(asked).toEqual(['mcp__docs__lookup'])
      expect(d.server.requests.map((r) => (r.body as any).model)).not.toContain('claude-haiku-4-5')
    } finally {
      await d.end()
    }
  })

  it('warns of a server it does not know, keeping the pin; refuses a mode that is not default, auto or null', async () => {
    const c = await conversation([{ reply: 'hi' }], setup([], [], 'bypassPermissions'))
    try {
      const { warning } = await c.q.setMcpPermissionModeOverride('dcos', 'default')
      expect(warning).toBe('no MCP server named "dcos" is known to this session (known: docs, docs__v2); the pin is kept and applies once a server of that name connects')
      await expect(c.q.setMcpPermissionModeOverride('docs', 'bypassPermissions' as never)).rejects.toThrow(/"bypassPermissions" cannot pin a server; the mode is "default", "auto" or null/)
      await c.say('hello')
    } finally {
      await c.end()
    }
  })
})
