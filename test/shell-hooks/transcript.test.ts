import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import transcripts from '../../mods/transcripts/index.js'
import { makeBox, writeSettings, cmd, run, script, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => {
  vi.unstubAllEnvs()
  await box.remove()
})

describe('transcript_path as Stop hooks read it', () => {
  it('holds the final answer, flushed before the hook runs; user and assistant lines have the shape scripts parse', async () => {
    vi.stubEnv('MODLOOP_HOME', join(box.root, 'modloop-home'))
    // The published way to read the answer: the last line of the transcript, copied as the hook sees it.
    const copy = await script(box, 'copy-last.mjs', `
      import { readFileSync, writeFileSync } from 'node:fs'
      const input = JSON.parse(readFileSync(0, 'utf8'))
      const lines = readFileSync(input.transcript_path, 'utf8').split('\\n').filter(Boolean)
      writeFileSync(${JSON.stringify(join(box.out, 'last.json'))}, lines.at(-1))
      writeFileSync(${JSON.stringify(join(box.out, 'all.jsonl'))}, lines.join('\\n'))
    `)
    await writeSettings(box, { Stop: [{ hooks: [cmd(`node ${copy}`)] }] })
    const r = await run(box, [{ reply: 'the final answer' }], 'what is it?', { mods: [transcripts] })
    expect(r.result.result).toBe('the final answer')

    const last = JSON.parse(await readFile(join(box.out, 'last.json'), 'utf8'))
    expect(last).toMatchObject({ type: 'assistant', sessionId: r.result.session_id, cwd: box.project, message: { role: 'assistant' } })
    expect(last.message.content).toMatchObject([{ type: 'text', text: 'the final answer' }])
    expect(last.uuid).toEqual(expect.any(String))
    expect(last.parentUuid).toEqual(expect.any(String))

    const lines = (await readFile(join(box.out, 'all.jsonl'), 'utf8')).split('\n').map((l) => JSON.parse(l))
    const user = lines.find((l) => l.type === 'user')
    expect(user).toMatchObject({ type: 'user', sessionId: r.result.session_id, cwd: box.project, message: { role: 'user' } })
    expect(JSON.stringify(user.message.content)).toContain('what is it?')
    expect(user.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/)
    // The assistant line answers the user line (the chain hook scripts walk).
    expect(last.parentUuid).toBe(user.uuid)
  })
})
