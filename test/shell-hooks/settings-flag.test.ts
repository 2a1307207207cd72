import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeBox, dump, dumped, type Box } from './helpers.js'
import { builtModloop } from '../helpers/built-cli.js'


let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const modloop = (args: string[]) => builtModloop(args, { cwd: box.project, env: { PATH: process.env.PATH, HOME: box.home, MODLOOP_HOME: join(box.root, 'modloop-home') } })

describe('modloop -p --settings FILE (the built CLI)', () => {
  it('runs the hooks of the settings file given on the command line', async () => {
    const settings = join(box.root, 'extra-settings.json')
    await writeFile(settings, JSON.stringify({
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: dump(box, 'UserPromptSubmit') }] }],
        Stop: [{ hooks: [{ type: 'command', command: dump(box, 'Stop') }] }],
      },
    }))
    await writeFile(join(box.project, 'script.json'), JSON.stringify({ steps: [{ reply: 'scripted answer' }] }))
    const r = await modloop(['-p', 'hello there', '--script', 'script.json', '--settings', settings])
    expect(r.code, r.err).toBe(0)
    expect(r.out).toContain('scripted answer')
    expect((await dumped(box, 'UserPromptSubmit')).map((e) => e.prompt)).toEqual(['hello there'])
    expect((await dumped(box, 'Stop')).map((e) => e.last_assistant_message)).toEqual(['scripted answer'])
  })
})
