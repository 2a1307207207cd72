import { rm } from 'node:fs/promises'
import { describe, it } from 'vitest'
import { hasTmux, send, tmuxSuite } from '../terminal-ui/suite.js'
import { checkRun, readNotes, recordingProject } from './check.js'

/**
 * Event conformance in the interactive terminal: the real CLI in a tmux pane, one turn with a
 * tool call, then Ctrl+D; the recorded events pass the same checks as the other modes.
 */
const suite = tmuxSuite(import.meta.filename)

describe.runIf(hasTmux)('event conformance: interactive terminal', () => {
  it('a turn with a tool call, then Ctrl+D', async () => {
    const p = await recordingProject()
    try {
      // The project has its own mods, so the terminal first asks to trust the folder.
      const pane = await suite.open(readNotes(p.dir), { cwd: p.dir, home: `${p.dir}/home` }, { waitFor: 'Do you trust the files in' })
      await pane.keys('1')
      // The status line shows once the session is ready for a prompt.
      await pane.waitFor(/default · \$/, 20_000)
      await send(pane, 'What do the notes say?')
      // The answer shows while the turn still ends (stop checks, turn.stop): Ctrl+D once it is idle.
      await pane.waitFor((screen) => screen.includes('The notes say hello.') && !screen.includes('esc to interrupt'), 20_000)
      await pane.keys('C-d')
      await pane.waitFor('[exited 0]', 20_000)
      checkRun('interactive', await p.read())
    } finally {
      await rm(p.dir, { recursive: true, force: true })
    }
  }, 60_000)
})
