import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { tempDir } from './helpers.js'
import { builtCli } from '../helpers/built-cli.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const sockets: Socket[] = []
let silent: Server | undefined

afterAll(async () => {
  for (const s of sockets) s.destroy()
  await new Promise((r) => silent?.close(r))
})

/** The built CLI in a process of its own; answers its exit code and stderr. */
function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; err: string }> {
  expect(existsSync(join(root, 'dist', 'bin', 'main.cjs')), 'run `npm run build` first').toBe(true)
  const child = spawn(process.execPath, [builtCli(), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
  let err = ''
  child.stderr.on('data', (d) => { err += String(d) })
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, err })))
}

// A server (or proxy) that takes the connection and never answers used to keep submit, jobs and
// worker waiting for good: pg opens connections without a time limit unless given one.
it('a database that takes the connection and never answers is an error naming it, not a hang', { timeout: 60_000 }, async () => {
  silent = createServer((s) => { sockets.push(s) })
  await new Promise<void>((r) => silent!.listen(0, '127.0.0.1', r))
  const port = (silent.address() as { port: number }).port
  const url = `postgres://u:secret@127.0.0.1:${port}/db`
  const env = { PGCONNECT_TIMEOUT: '1', HOME: tempDir('silent-home'), MODLOOP_HOME: tempDir('silent-modloop') }
  const commands = [['submit', '--queue', url, '-p', 'hi'], ['jobs', '--queue', url], ['worker', '--queue', url]]
  const runs = await Promise.all(commands.map((args) => run(args, env)))
  for (const [i, { code, err }] of runs.entries()) {
    expect(code, commands[i]![0]).toBe(1)
    expect(err).toContain(`cannot reach the database at postgres://u:***@127.0.0.1:${port}/db`)
    expect(err).toContain('timeout')
  }
})
