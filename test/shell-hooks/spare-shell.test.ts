import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cmd, makeBox, run, writeSettings, type Box } from './helpers.js'
import { watchCallChildren } from '../tools/harness.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

/** Three Echo calls in a session with a PreToolUse hook; per call, whether the hook's shell was running when the call began. */
async function hookPids(pace: { chunkDelayMs?: number }) {
  const pids = join(box.out, 'pids')
  await writeSettings(box, { PreToolUse: [{ matcher: 'Echo', hooks: [cmd(`cat > /dev/null; echo "$$" >> ${pids}`)] }] })
  const { mod: watch, atCall } = watchCallChildren()
  const step = { reply: [{ tool_use: { name: 'Echo', input: { text: 'hi' } } }], ...pace }
  const r = await run(box, [step, step, step, { reply: 'Done.' }], 'go', { mods: [watch] })
  expect(r.result.terminal_reason).toBe('completed')
  const ran = (await readFile(pids, 'utf8')).trim().split('\n').map(Number)
  expect(ran).toHaveLength(3)
  expect(atCall).toHaveLength(3)
  return ran.map((pid, i) => atCall[i]!.has(pid))
}

describe.skipIf(process.platform !== 'linux')('command hooks in a shell started while the model answers', () => {
  it('runs the next PreToolUse hook of a session in the shell started while the model streamed', async () => {
    // The session's first hook is spawned; each later one was waiting.
    expect(await hookPids({ chunkDelayMs: 10 })).toEqual([false, true, true])
  })

  it('starts none when the answer comes at once: the fork would hold up the round', async () => {
    expect(await hookPids({})).toEqual([false, false, false])
  })
})
