import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SDKMessage } from '../../core/loop/messages.js'
import { query } from '../../entry.js'
import { builtModloop } from '../helpers/built-cli.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-bad-script-')))
  await writeFile(join(dir, 'bad.json'), JSON.stringify([{ reply: 42 }]))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const modloop = (args: string[]) => builtModloop(args, { cwd: dir, env: { ...process.env, MODLOOP_HOME: join(dir, 'home'), ANTHROPIC_API_KEY: '' } })

const expectSetupFailure = (result: Record<string, any>) => {
  expect(result).toMatchObject({ type: 'result', subtype: 'error_during_execution', is_error: true, terminal_reason: 'turn_setup_failed', num_turns: 0 })
  expect(result.errors).toHaveLength(1)
  expect(result.errors[0]).toContain('bad.json')
  expect(result.errors[0]).toContain('steps[0].reply')
}

describe('a malformed model script', () => {
  it('-p --output-format json prints an error_during_execution result naming the field, exit 1', async () => {
    const r = await modloop(['-p', 'go', '--script', 'bad.json', '--output-format', 'json'])
    expect(r.code).toBe(1)
    expectSetupFailure(JSON.parse(r.out))
  })

  it('-p --output-format stream-json ends with that result line', async () => {
    const r = await modloop(['-p', 'go', '--script', 'bad.json', '--output-format', 'stream-json', '--verbose'])
    expect(r.code).toBe(1)
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l))
    expectSetupFailure(lines.at(-1))
  })

  it('query() yields the result first, then throws with its text', async () => {
    const messages: SDKMessage[] = []
    let thrown: unknown
    try {
      for await (const m of query({ prompt: 'go', options: { bare: true, cwd: dir, script: [{ reply: 'ok' }, { reply: [{ nope: 1 }] }] } })) messages.push(m)
    } catch (err) {
      thrown = err
    }
    const result = messages.at(-1) as Record<string, any>
    expect(result).toMatchObject({ type: 'result', subtype: 'error_during_execution', terminal_reason: 'turn_setup_failed' })
    expect(result.errors[0]).toContain('steps[1].reply[0]')
    expect((thrown as Error).message).toContain('steps[1].reply[0]')
  })
})
