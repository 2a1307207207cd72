import { describe, expect, it } from 'vitest'
import modelSwitch from '../../mods/model-switch/index.js'
import { toolsMod } from '../loop/helpers.js'
import { conversation } from './conversation.js'

const effortOf = (body: unknown) => (body as { output_config?: { effort?: string } }).output_config?.effort

describe('/effort', () => {
  it('shows the effort, sets it for the next requests without a model call, clamps it to the model, and auto goes back to the model default', async () => {
    const c = await conversation([{ reply: 'one' }, { reply: 'two' }, { reply: 'three' }], { model: 'claude-opus-4-6', effort: 'low', mods: [toolsMod(), modelSwitch] as never })
    try {
      expect((await c.say('/effort')).result).toBe('Effort: low (claude-opus-4-6)\nUsage: /effort <low|medium|high|xhigh|max|auto> (auto: the model\'s default)')
      const set = await c.say('/effort XHIGH')
      expect(set).toMatchObject({ is_error: false, local_command: 'effort' })
      expect(set.result).toBe('Set effort level to xhigh for this session: deeper reasoning than high, short of the maximum (where the model offers it)\nclaude-opus-4-6 does not take xhigh, so its requests are sent high')
      expect(c.server.requests).toHaveLength(0)
      await c.say('first')
      expect((await c.say('/effort medium')).result).toMatch(/^Set effort level to medium for this session: /)
      await c.say('second')
      expect((await c.say('/effort auto')).result).toMatch(/^Effort level set to auto/)
      expect((await c.say('/effort')).result).toMatch(/^Effort: auto, the model's default \(claude-opus-4-6: high\)\n/)
      await c.say('third')
      expect(c.server.requests.map((r) => effortOf(r.body))).toEqual(['high', 'medium', 'high'])
      // The history keeps the command, so the model knows the person changed it.
      expect(JSON.stringify(c.server.requests[0]!.body)).toContain('<command-args>XHIGH</command-args>')
    } finally {
      await c.end()
    }
  })

  it('an unknown level is answered with the options, and the effort stays', async () => {
    const c = await conversation([{ reply: 'one' }], { model: 'claude-opus-4-6', effort: 'low', mods: [toolsMod(), modelSwitch] as never })
    try {
      const r = await c.say('/effort fast')
      expect(r).toMatchObject({ is_error: false, result: 'Unknown effort level: fast. Options: low, medium, high, xhigh, max, auto' })
      await c.say('go')
      expect(effortOf(c.server.requests[0]!.body)).toBe('low')
    } finally {
      await c.end()
    }
  })
})
