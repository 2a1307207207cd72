import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CanUseTool } from '../../core/tools/pipeline.js'
import { createTestHost, defineMod } from '../../testing.js'

/** Calls a tool through `$` as a prompt comes in; keeps what the call resolved to, or its rejection. */
function caller(got: unknown[], args: { tool: string; [arg: string]: unknown }) {
  return defineMod({
    name: 'caller',
    register(on) {
      on('prompt.submit', async ($, e, next) => {
        got.push(await $.tool.call(args).catch((err: Error) => `rejected: ${err.message}`))
        return next(e)
      })
    },
  })
}

describe('$.tool.call', () => {
  it('goes through the permission check and, for an ask, the session\'s approver (canUseTool)', async () => {
    const got: unknown[] = []
    const asked: string[] = []
    const canUseTool: CanUseTool = async (tool) => {
      asked.push(tool)
      return { behavior: 'allow' }
    }
    const t = await createTestHost({ mods: ['permissions', 'write', caller(got, { tool: 'Write', file_path: 'made.txt', content: 'hi' })], script: [{ reply: 'ok' }] })
    await t.run('hello', { canUseTool })
    expect(asked).toEqual(['Write'])
    expect(got).toEqual([expect.not.objectContaining({ deny: expect.anything() })])
    expect(existsSync(join(t.cwd, 'made.txt'))).toBe(true)
    await t.close()
  })

  it('rejects when the turn it runs in is aborted', async () => {
    const got: unknown[] = []
    const abortController = new AbortController()
    const stopper = defineMod({
      name: 'stopper',
      register(on) {
        on('session.start', async ($, e, next) => {
          await $.tool.register({ name: 'Stop', description: 'aborts the query it runs in', call: () => { abortController.abort(); return { result: 'stopped' } } })
          return next(e)
        })
      },
    })
    const t = await createTestHost({ mods: [stopper, caller(got, { tool: 'Stop' })], script: [{ reply: 'ok' }] })
    await t.run('hello', { abortController }).catch(() => undefined)
    expect(got).toEqual([expect.stringMatching(/^rejected: .*\$\.tool\.call/)])
    await t.close()
  })

  it('takes the person\'s consent beside the arguments, and the tool never sees it', async () => {
    const got: unknown[] = []
    const t = await createTestHost({ mods: ['permissions', 'write', caller(got, { tool: 'Write', file_path: 'ok.txt', content: 'hi', consent: 'yes, write it' })], script: [{ reply: 'ok' }] })
    await t.run('hello', { permissionMode: 'bypassPermissions' })
    expect(got).toEqual([expect.not.objectContaining({ isError: true })])
    expect(existsSync(join(t.cwd, 'ok.txt'))).toBe(true)
    await t.close()
  })

  it('rejects a call with no tool name, or an unknown one, naming the mod', async () => {
    const got: unknown[] = []
    const t = await createTestHost({ mods: [caller(got, { tool: 'NoSuchTool' }), defineMod({ name: 'careless', register(on) {
      on('prompt.submit', async ($, e, next) => {
        got.push(await $.tool.call(undefined as never).catch((err: Error) => `rejected: ${err.message}`))
        return next(e)
      })
    } })], script: [{ reply: 'ok' }] })
    await t.run('hello')
    expect(got).toEqual(['rejected: caller: $.tool.call: no such tool "NoSuchTool"', 'rejected: careless: $.tool.call needs { tool }, the name of a tool'])
    await t.close()
  })
})
