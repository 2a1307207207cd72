import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import transcripts from '../../mods/transcripts/index.js'
import { cmd, hooksMod, makeBox, script, writeSettings, type Box } from '../shell-hooks/helpers.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { fileOf, readLines } from './helpers.js'

let box: Box
beforeAll(async () => { box = await makeBox() })
afterAll(() => box.remove())

/** A Stop hook in sh: takes transcript_path from its input and keeps the last assistant line of the file. */
const STOP_HOOK = `input=$(cat)
path=$(printf '%s' "$input" | sed -n 's/.*"transcript_path":"\\([^"]*\\)".*/\\1/p')
grep '"type":"assistant"' "$path" | tail -n 1 > "$1/last-assistant.json"
`

describe('a Stop hook reading transcript_path', () => {
  it('finds the assistant line of the turn that is stopping, already written', async () => {
    const hook = await script(box, 'stop.sh', STOP_HOOK)
    await writeSettings(box, { Stop: [{ hooks: [cmd(`sh ${hook} ${box.out}`)] }] }, join(box.home, '.claude', 'settings.json'))
    const mods = [toolsMod(), transcripts, hooksMod(box)]
    const lastSeen = async () => JSON.parse(await readFile(join(box.out, 'last-assistant.json'), 'utf8'))

    const first = await runScript([{ reply: 'ANSWER ONE' }], 'one', { cwd: box.project, mods })
    const id = first.result.session_id
    expect((await lastSeen()).message.content[0].text).toBe('ANSWER ONE')

    const second = await runScript([{ reply: 'ANSWER TWO' }], 'two', { cwd: box.project, mods, resume: id })
    const seen = await lastSeen()
    const answer = second.messages.find((m) => m.type === 'assistant')!
    expect(seen).toMatchObject({ type: 'assistant', sessionId: id, uuid: answer.uuid, message: { content: [{ type: 'text', text: 'ANSWER TWO' }] } })
    // It is the line the file holds for this turn's answer, linked into the conversation.
    const lines = readLines(fileOf(box.project, id))
    const prompt = lines.find((l) => l.type === 'user' && l.message.content[0]?.text === 'two')!
    expect(seen.parentUuid).toBe(prompt.uuid)
  })
})
