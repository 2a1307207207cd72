import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { faultRelay } from '../../cli/fault-relay.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const interactive = join(root, 'dist/cli/interactive.js')

// A surface mod standing in for the terminal: it listens to the guard's feed, then throws in a
// timer of its own, outside any handler — an error of modloop's own, which must end the session.
const SURFACE = `export default { name: 'fake-surface', provides: ['surface.fake'], register(on, options, $) {
  $.capability.provide('surface.fake', { run: (ctx) => new Promise((resolve) => {
    const shown = []
    ctx.faults.listen((text) => shown.push(text), (err) => { console.log(JSON.stringify({ shown, stop: err.message })); resolve(0) })
    setTimeout(() => { throw new Error('boom') })
  }) })
} }
`

// The interactive command on a stand-in terminal (streams that say they are TTYs), in a process of
// its own: the guard installs process-wide handlers, and the test runner has its own.
const PROGRAM = (cwd: string) => `import { PassThrough } from 'node:stream'
import { interactive } from ${JSON.stringify(interactive)}
const tty = () => Object.assign(new PassThrough(), { isTTY: true, columns: 80, rows: 24, setRawMode() { return this } })
let err = ''
const io = { stdin: tty(), stdout: tty(), stderr: { write: (t) => { err += t } }, cwd: ${JSON.stringify(cwd)}, env: { ...process.env, HOME: ${JSON.stringify(join(cwd, 'home'))}, MODLOOP_HOME: ${JSON.stringify(join(cwd, 'home', '.modloop'))} }, ownsProcess: true }
const code = await interactive({ values: { mod: ['./surface.mjs'] }, positionals: [], io })
console.log(JSON.stringify({ code, err, listeners: process.listenerCount('uncaughtException') }))
process.exit(0)`

let cwd: string
beforeAll(async () => {
  cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-faults-interactive-')))
  await writeFile(join(cwd, 'surface.mjs'), SURFACE)
})
afterAll(() => rm(cwd, { recursive: true, force: true }))

describe('the interactive front end guards the process as -p does', () => {
  it.runIf(existsSync(interactive))('an error of its own no one awaited is shown in the surface and ends the session with exit 1, not the process', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', PROGRAM(cwd)], { cwd })
    const [surface, end] = stdout.trim().split('\n').map((l) => JSON.parse(l))
    expect(surface.stop).toBe('internal error (an uncaught exception): boom')
    expect(surface.shown).toEqual([expect.stringMatching(/^modloop: MODLOOP_ERR_STRAY: an uncaught exception inside modloop; ending the run: Error: boom/)])
    // Shown in the surface, not written under its screen; the guard is gone once the command returned.
    expect(end).toEqual({ code: 1, err: '', listeners: 0 })
  })

  it('before the surface listens, reports go to stderr and a stop waits for it', () => {
    let err = ''
    const relay = faultRelay({ write: (t: string) => (err += t) })
    relay.guard.io.stderr.write('early\n')
    relay.guard.stop(new Error('first'))
    relay.guard.stop(new Error('second'))
    expect(err).toBe('early\n')
    expect(relay.stopped).toBe(true)
    const stops: string[] = []
    const shown: string[] = []
    const unlisten = relay.feed.listen((t) => shown.push(t), (e) => stops.push(e.message))
    relay.guard.io.stderr.write('late\n')
    expect({ stops, shown }).toEqual({ stops: ['first'], shown: ['late\n'] })
    unlisten()
    relay.guard.io.stderr.write('after\n')
    expect(err).toBe('early\nafter\n')
  })
})
