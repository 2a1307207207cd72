import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import bash from '../../mods/bash/index.js'
import { big, bigTool, boundaries, compactionWith, summary } from '../compaction/helpers.js'
import { runScript } from '../loop/helpers.js'
import { cmd, makeBox, run, writeSettings, type Box } from '../shell-hooks/helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const toolResult = (r: { body: any }) => r.body.messages.at(-1).content.find((b: any) => b.type === 'tool_result')

describe('query options.env is the session\'s environment', () => {
  it('reaches Bash commands', async () => {
    expect(process.env.MODLOOP_TEST_FOO).toBeUndefined()
    const r = await runScript([{ reply: [{ tool_use: { name: 'Bash', input: { command: 'echo "foo=$MODLOOP_TEST_FOO"' } } }] }, { reply: 'done' }], 'go', {
      mods: [bash], cwd: box.project, env: { ...process.env, MODLOOP_TEST_FOO: 'bar' },
    })
    expect(toolResult(r.requests[1]!).content).toBe('foo=bar')
  })

  it('is what $.env reads and writes, without touching process.env or the caller\'s object', async () => {
    const seen: (string | undefined)[] = []
    const probe = defineMod({
      name: 'probe',
      register: (on) => on('session.start', ($, e, next) => {
        seen.push($.env.get('MODLOOP_TEST_FOO'))
        $.env.set('MODLOOP_TEST_SET', 'x')
        seen.push($.env.all().MODLOOP_TEST_SET)
        return next(e)
      }),
    })
    const env = { ...process.env, MODLOOP_TEST_FOO: 'bar' }
    await runScript([{ reply: 'done' }], 'go', { mods: [probe], cwd: box.project, env })
    expect(seen).toEqual(['bar', 'x'])
    expect(process.env.MODLOOP_TEST_SET).toBeUndefined()
    expect(env).not.toHaveProperty('MODLOOP_TEST_SET')
  })

  it('reaches hook commands', async () => {
    const out = join(box.out, 'foo.txt')
    await writeSettings(box, { UserPromptSubmit: [{ hooks: [cmd(`printf '%s' "$MODLOOP_TEST_FOO" > ${out}`)] }] })
    await run(box, [{ reply: 'done' }], 'go', { env: { ...process.env, MODLOOP_TEST_FOO: 'from-options' } })
    expect(await readFile(out, 'utf8')).toBe('from-options')
  })

  it('sets the compaction threshold (MODLOOP_AUTOCOMPACT_TOKENS)', async () => {
    const r = await runScript([big('r1'), big('r2'), big('r3'), summary('SUMMARY-ENV'), { reply: 'done' }], 'go', {
      mods: [bigTool, compactionWith({ keepRecentFraction: 0, microcompact: false })], env: { MODLOOP_AUTOCOMPACT_TOKENS: '5000' },
    })
    expect(r.result.result).toBe('done')
    expect(boundaries(r.messages)).toHaveLength(1)
  })

  it('gives the model client its credentials (ANTHROPIC_AUTH_TOKEN)', async () => {
    const r = await runScript([{ reply: 'done' }], 'go', { env: { ANTHROPIC_API_KEY: '', ANTHROPIC_AUTH_TOKEN: 'token-from-options' } })
    expect((r.requests[0] as { headers?: Record<string, unknown> }).headers?.authorization).toBe('Bearer token-from-options')
  })
})
