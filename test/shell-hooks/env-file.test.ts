import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import bash from '../../mods/bash/index.js'
import { makeBox, writeSettings, cmd, run, lastUserTexts, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const bashCall = (command: string, id: string) => ({ tool_use: { id, name: 'Bash', input: { command } } })

describe('CLAUDE_ENV_FILE', () => {
  it('export lines a SessionStart hook appends hold in every later Bash command of the session', async () => {
    await writeSettings(box, {
      SessionStart: [{ hooks: [
        cmd(`echo 'export FOO_FROM_HOOK=yes' >> "$CLAUDE_ENV_FILE"`),
        // A hook that writes nothing to its file takes nothing away.
        cmd('true'),
        cmd(`printf 'export SECOND_HOOK="two words"\\n' > "$CLAUDE_ENV_FILE"`),
      ] }],
    })
    const r = await run(box, [
      { reply: [bashCall('echo "foo=$FOO_FROM_HOOK second=$SECOND_HOOK"', 'toolu_1')] },
      { reply: [bashCall('mkdir -p sub && cd sub && echo "still $FOO_FROM_HOOK"', 'toolu_2')] },
      { reply: 'ok' },
    ], 'go', { mods: [bash] })
    expect(lastUserTexts(r.requests[1]!.body)[0]).toBe('foo=yes second=two words')
    expect(lastUserTexts(r.requests[2]!.body)[0]).toBe('still yes')
  })

  it('is not given on events other than SessionStart, and Bash runs as before without hooks', async () => {
    await writeSettings(box, { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`[ -z "$CLAUDE_ENV_FILE" ] || { echo 'export LEAK=1' >> "$CLAUDE_ENV_FILE"; }`)] }] })
    const r = await run(box, [{ reply: [bashCall('echo "leak=${LEAK:-none}"', 'toolu_1')] }, { reply: 'ok' }], 'go', { mods: [bash] })
    expect(lastUserTexts(r.requests[1]!.body)[0]).toBe('leak=none')
  })
})
