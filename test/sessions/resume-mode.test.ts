import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { permissionsWith } from '../permissions/helpers.js'
import { fileOf, readLines, run, tempCwd } from './helpers.js'

let cwd: string
let home: string
beforeAll(async () => {
  cwd = await tempCwd()
  home = await realpath(await mkdtemp(join(tmpdir(), 'modloop-mode-home-')))
})
afterAll(() => rm(home, { recursive: true, force: true }))

const permissions = () => permissionsWith({ home, trustStore: join(home, 'trusted.json') })
const initMode = (messages: readonly any[]) => messages.find((m) => m.type === 'system' && m.subtype === 'init')?.permissionMode
const prompts = (path: string) => readLines(path).filter((l) => l.type === 'user')

describe('the permission mode across a resume', () => {
  it('each prompt line records its mode; a resumed session goes on in it unless told otherwise', async () => {
    const first = await run([{ reply: 'ok' }], 'first', cwd, { permissionMode: 'acceptEdits' }, [permissions()])
    expect(prompts(fileOf(cwd, first.sessionId)).map((l) => l.permissionMode)).toEqual(['acceptEdits'])
    const resumed = await run([{ reply: 'ok' }], 'second', cwd, { resume: first.sessionId }, [permissions()])
    expect(initMode(resumed.messages)).toBe('acceptEdits')
    expect(prompts(fileOf(cwd, first.sessionId)).map((l) => l.permissionMode)).toEqual(['acceptEdits', 'acceptEdits'])
    const told = await run([{ reply: 'ok' }], 'third', cwd, { resume: first.sessionId, permissionMode: 'dontAsk' }, [permissions()])
    expect(initMode(told.messages)).toBe('dontAsk')
  })

  it('plan and bypassPermissions are not inherited', async () => {
    for (const mode of ['plan', 'bypassPermissions']) {
      const first = await run([{ reply: 'ok' }], 'first', cwd, { permissionMode: mode }, [permissions()])
      expect(prompts(fileOf(cwd, first.sessionId))[0]!.permissionMode).toBe(mode)
      const resumed = await run([{ reply: 'ok' }], 'again', cwd, { resume: first.sessionId }, [permissions()])
      expect(initMode(resumed.messages)).toBe('default')
    }
  })
})
