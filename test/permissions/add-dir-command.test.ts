import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import commandsMod from '../../mods/commands/index.js'
import readMod from '../../mods/read/index.js'
import { conversation } from '../sdk/conversation.js'
import { permissionsWith, sandbox, type Sandbox } from './helpers.js'

let box: Sandbox
let extra: string
beforeAll(async () => {
  box = await sandbox()
  extra = join(box.root, 'extra')
  await mkdir(extra)
  await writeFile(join(extra, 'notes.txt'), 'alpha\n')
})
afterAll(() => box.remove())

const read = (file: string) => ({ reply: [{ tool_use: { name: 'Read', input: { file_path: file } } }] })
const lastResult = (body: any) => body.messages.at(-1).content.find((b: any) => b.type === 'tool_result')

describe('/add-dir', () => {
  it('adds a working directory for the session: a Read there runs unasked, also after /clear; bad paths are answered', async () => {
    const notes = join(extra, 'notes.txt')
    const permissions = permissionsWith({ home: box.home, trustStore: join(box.modloopHome, 'trusted.json') })
    const c = await conversation([read(notes), { reply: 'refused' }, read(notes), { reply: 'read' }, read(notes), { reply: 'again' }], { cwd: box.project, mods: [readMod, permissions, commandsMod] as never })
    try {
      await c.say('before')
      expect(lastResult(c.server.requests[1]!.body).is_error).toBe(true)
      expect((await c.say('/add-dir ../nope')).result).toBe('Path ../nope was not found.')
      expect((await c.say(`/add-dir ${notes}`)).result).toBe(`${notes} is not a directory. Did you mean to add the parent directory ${extra}?`)
      expect((await c.say('/add-dir src')).result).toBe(`src is inside the current working directory ${box.project}, so it is already reachable.`)
      const added = await c.say('/add-dir ../extra')
      expect(added).toMatchObject({ local_command: 'add-dir', is_error: false, result: `Added ${extra} as a working directory for this session - /permissions to list the directories` })
      expect((await c.say(`/add-dir ${extra}`)).result).toBe(`${extra} is already added as a working directory.`)
      expect(c.server.requests).toHaveLength(2)
      await c.say('after')
      expect(lastResult(c.server.requests[3]!.body)).toMatchObject({ content: expect.stringMatching(/1\s+alpha/) })
      expect((await c.say('/clear')).result).toMatch(/^Started a new conversation/)
      await c.say('after clear')
      expect(lastResult(c.server.requests[5]!.body)).toMatchObject({ content: expect.stringMatching(/1\s+alpha/) })
    } finally {
      await c.end()
    }
  })
})
