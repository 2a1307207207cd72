import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import bashMod from '../../mods/bash/index.js'
import settingsEnv from '../../mods/settings-env/index.js'
import { withOptions } from '../shell-hooks/helpers.js'
import { toolsMod } from '../loop/helpers.js'
import { permissionsWith, sandbox, type Sandbox } from '../permissions/helpers.js'
import type { QueryOptions } from '../../runtime/options.js'
import { DEFAULT_MODEL } from '../../core/loop/session-options.js'
import { defaultEffort } from '../../core/model/capabilities.js'
import { conversation } from './conversation.js'

// Query.applyFlagSettings: settings merged into the flag layer while the session runs.

let box: Sandbox
beforeAll(async () => { box = await sandbox() })
afterAll(() => box.remove())

const touch = { reply: [{ tool_use: { name: 'Touch', input: { label: 'x' } } }] }

function setup(log: string[], asked: string[], extra: Partial<QueryOptions> = {}): QueryOptions {
  return {
    cwd: box.project,
    env: { MODLOOP_HOME: box.modloopHome },
    canUseTool: async (tool: string) => { asked.push(tool); return { behavior: 'deny' as const, message: 'not now' } },
    mods: [toolsMod(log), permissionsWith({ home: box.home, trustStore: join(box.root, 'trust.json') })],
    ...extra,
  }
}

describe('applyFlagSettings', () => {
  it('permission rules apply from the next call; a later permissions key replaces the whole earlier one; null takes it away', async () => {
    const log: string[] = []
    const asked: string[] = []
    const c = await conversation([touch, { reply: 'a' }, touch, { reply: 'b' }, touch, { reply: 'c' }, touch, { reply: 'd' }], setup(log, asked))
    try {
      await c.say('touch it')
      expect(asked).toEqual(['Touch'])
      await c.q.applyFlagSettings({ permissions: { allow: ['Touch'] } })
      await c.say('again')
      expect(log).toEqual(['touch x'])
      await c.q.applyFlagSettings({ permissions: { deny: ['Touch'] } })
      const denied = await c.say('and again')
      expect(denied.permission_denials).toHaveLength(1)
      expect(asked).toEqual(['Touch'])
      await c.q.applyFlagSettings({ permissions: null })
      await c.say('once more')
      expect(asked).toEqual(['Touch', 'Touch'])
      expect(log).toEqual(['touch x'])
    } finally {
      await c.end()
    }
  })

  it('model and effortLevel apply to the requests that follow; a value of the wrong kind rejects the whole call and nothing of it applies', async () => {
    const log: string[] = []
    const asked: string[] = []
    const c = await conversation([{ reply: 'one' }, { reply: 'two' }, touch, { reply: 'three' }], setup(log, asked, { model: 'claude-sonnet-4-6' }))
    try {
      await c.say('hello')
      await c.q.applyFlagSettings({ model: 'claude-opus-4-6', effortLevel: 'low' })
      await c.say('hello again')
      const second = c.server.requests[1]!.body as any
      expect(second.model).toBe('claude-opus-4-6')
      expect(second.output_config).toEqual({ effort: 'low' })
      await expect(c.q.applyFlagSettings({ permissions: { allow: ['Touch'] }, effortLevel: 'extreme' })).rejects.toThrow(/effortLevel must be one of low, medium, high, xhigh, max or null, got "extreme"; nothing of this call was applied/)
      await expect(c.q.applyFlagSettings({ permissions: { allow: 'Touch' } })).rejects.toThrow(/permissions.allow must be a list of strings/)
      await expect(c.q.applyFlagSettings([] as never)).rejects.toThrow(/settings must be an object of settings keys, got an array/)
      // `max` is for the session alone.
      await c.q.applyFlagSettings({ effortLevel: 'max' })
      await c.say('touch it')
      expect(asked).toEqual(['Touch'])
      expect(log).toEqual([])
      expect((c.server.requests[2]!.body as any).output_config).toEqual({ effort: 'max' })
    } finally {
      await c.end()
    }
  })

  it('an env block applies from the next turn: the next Bash command sees it, and its variable goes again with the key', async () => {
    const echo = { reply: [{ tool_use: { name: 'Bash', input: { command: 'echo "[$FLAG_GREETING]"' } } }] }
    const env = withOptions(settingsEnv, { home: box.home, managedDir: false, trustStore: join(box.root, 'trust.json') })
    const c = await conversation([echo, { reply: 'a' }, echo, { reply: 'b' }, echo, { reply: 'c' }], { cwd: box.project, env: { MODLOOP_HOME: box.modloopHome }, mods: [env, bashMod] })
    const outputs = () => c.server.requests.map((r) => (r.body as any).messages.at(-1).content[0]).filter((b: any) => b?.type === 'tool_result').map((b: any) => JSON.stringify(b.content))
    try {
      await c.say('echo')
      await c.q.applyFlagSettings({ env: { FLAG_GREETING: 'hello' } })
      await c.say('echo again')
      await c.q.applyFlagSettings({ env: null })
      await c.say('and again')
      expect(outputs()).toEqual([expect.stringContaining('[]'), expect.stringContaining('[hello]'), expect.stringContaining('[]')])
    } finally {
      await c.end()
    }
  })

  it('effortLevel null goes to the model\'s own default, over the settings\' level; model null to modloop\'s default model', async () => {
    const env = withOptions(settingsEnv, { home: box.home, managedDir: false, trustStore: join(box.root, 'trust.json') })
    const c = await conversation([{ reply: 'one' }, { reply: 'two' }, { reply: 'three' }], {
      cwd: box.project, env: { MODLOOP_HOME: box.modloopHome }, model: 'claude-opus-4-6', settings: { effortLevel: 'high' }, mods: [env],
    })
    const sent = (i: number) => c.server.requests[i]!.body as any
    try {
      await c.say('hello')
      expect(sent(0).output_config).toEqual({ effort: 'high' })
      await c.q.applyFlagSettings({ effortLevel: 'low' })
      await c.say('again')
      expect(sent(1).output_config).toEqual({ effort: 'low' })
      await c.q.applyFlagSettings({ effortLevel: null, model: null })
      await c.say('once more')
      expect(sent(2).model).toBe(DEFAULT_MODEL)
      // The settings ask for high; the default model's own is medium.
      expect(defaultEffort(DEFAULT_MODEL)).toBe('medium')
      expect(sent(2).output_config).toEqual({ effort: 'medium' })
    } finally {
      await c.end()
    }
  })
})
