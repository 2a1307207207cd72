import { describe, expect, it } from 'vitest'
import { runScript } from './helpers.js'
import { systemText } from '../helpers/system-text.js'

const systemOf = (r: { requests: { body: any }[] }) => systemText(r.requests[0]!.body)

describe('systemPrompt: { type: "preset", append }', () => {
  it('sends the preset\'s sections, then the appended text at the end', async () => {
    const run = await runScript([{ reply: 'ok' }], 'go', { systemPrompt: { type: 'preset', preset: 'claude_code', append: 'Always answer in British English.' } })
    expect(run.result).toMatchObject({ subtype: 'success', result: 'ok' })
    const system = systemOf(run)
    for (const part of ['interactive coding agent', 'read the code before changing it', 'hard to undo', 'Prefer the dedicated file tools', 'Be concise']) {
      expect(system).toContain(part)
    }
    expect(system.endsWith('Always answer in British English.')).toBe(true)
  })

  it('without it the prompt is the minimal one, and a string replaces it whole', async () => {
    const minimal = systemOf(await runScript([{ reply: 'ok' }], 'go'))
    expect(minimal).toContain('Use the tools you are given')
    expect(minimal).not.toContain('Prefer the dedicated file tools')
    expect(systemOf(await runScript([{ reply: 'ok' }], 'go', { systemPrompt: 'Only this.' }))).toBe('Only this.')
  })
})
