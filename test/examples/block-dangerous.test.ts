import { afterEach, describe, expect, it } from 'vitest'
import { createTestHost, type TestHost } from '../../testing.js'
import { example } from './paths.js'

const guard = example('mods/block-dangerous')
let t: TestHost | undefined
afterEach(() => t?.close())

describe('example: block-dangerous', () => {
  it('refuses commands that wreck the machine and lets others through', async () => {
    t = await createTestHost({ mods: [guard] })
    expect(t.host.errors).toEqual([])
    const core = () => ({ result: 'ran' })
    for (const command of ['rm -rf /', 'sudo rm -fr ~', 'mkfs.ext4 /dev/sda1', 'dd if=/dev/zero of=/dev/sda', ':(){ :|:& };:']) {
      const r = await t.emit('tool.call', { tool: 'Bash', tool_use_id: 'toolu_1', command }, core)
      expect(r, command).toMatchObject({ deny: expect.stringContaining('block-dangerous: refused') })
    }
    expect(await t.emit('tool.call', { tool: 'Bash', tool_use_id: 'toolu_2', command: 'rm -rf build' }, core)).toEqual({ result: 'ran' })
    expect(await t.emit('tool.call', { tool: 'Read', tool_use_id: 'toolu_3', file_path: '/' }, core)).toEqual({ result: 'ran' })
  })

  it('takes extra patterns as options, and refuses in a real turn with the Bash tool', async () => {
    t = await createTestHost({
      mods: [[guard, { extra: ['git push --force'] }], 'bash'],
      script: [{ reply: [{ tool_use: { name: 'Bash', input: { command: 'git push --force origin main' } } }] }, { reply: 'ok, I will not force-push' }],
    })
    const { messages, result } = await t.run('push it')
    const toolResult = messages.flatMap((m) => (m.type === 'user' ? (m.message.content as { type: string; content?: unknown; is_error?: boolean }[]) : [])).find((b) => b.type === 'tool_result')
    expect(toolResult).toMatchObject({ is_error: true, content: expect.stringContaining('matches the configured pattern') })
    expect(result).toMatchObject({ subtype: 'success', permission_denials: [{ tool_name: 'Bash' }] })
  })
})
