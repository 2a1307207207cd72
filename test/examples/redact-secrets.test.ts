import { mkdtemp, realpath, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestHost, type TestHost } from '../../testing.js'
import { example } from './paths.js'

const redact = example('mods/redact-secrets')
let t: TestHost | undefined
afterEach(() => t?.close())

describe('example: redact-secrets', () => {
  it('masks secrets in the result and text of any tool', async () => {
    t = await createTestHost({ mods: [redact] })
    const leaked = 'aws AKIAABCDEFGHIJKLMNOP and password=hunter22 and ghp_abcdefghijklmnopqrstuvwxyz0123'
    const r = await t.emit('tool.call', { tool: 'Bash', tool_use_id: 'toolu_1', command: 'env' }, () => ({ result: { stdout: leaked }, text: leaked }))
    expect(r).toEqual({
      result: { stdout: 'aws [REDACTED] and password=[REDACTED] and [REDACTED]' },
      text: 'aws [REDACTED] and password=[REDACTED] and [REDACTED]',
    })
    expect(await t.emit('tool.call', { tool: 'Bash', tool_use_id: 'toolu_2', command: 'x' }, () => ({ deny: 'no' }))).toEqual({ deny: 'no' })
  })

  it('keeps a key in a file the Read tool returns away from the model', async () => {
    const cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-redact-')))
    const file = join(cwd, '.env')
    await writeFile(file, 'ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnop\n')
    t = await createTestHost({
      cwd,
      mods: [[redact, { mask: '***' }], 'read'],
      script: [{ reply: [{ tool_use: { name: 'Read', input: { file_path: file } } }] }, { reply: 'read it' }],
    })
    await t.run('read .env')
    const sent = JSON.stringify(t.model.requests[1]!.messages)
    expect(sent).not.toContain('sk-ant-api03')
    expect(sent).toContain('ANTHROPIC_API_KEY=***')
  })
})
