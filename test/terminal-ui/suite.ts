import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js'
import { builtCli } from '../helpers/built-cli.js'
import { killServer, Pane, startServer } from './harness.js'

export const hasTmux = existsSync('/usr/bin/tmux')

export interface Where { cwd: string; home: string }

// Made by `project`, removed once the file's tests are done (a worker runs one file at a time).
const made: string[] = []

/** A temp project (with `files`) and a home of its own. */
export async function project(files: Record<string, string> = {}): Promise<Where> {
  const base = await mkdtemp(join(tmpdir(), 'modloop-tui-'))
  made.push(base)
  const cwd = join(base, 'project')
  const home = join(base, 'home')
  await mkdir(cwd, { recursive: true })
  await mkdir(home, { recursive: true })
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(cwd, path, '..'), { recursive: true })
    await writeFile(join(cwd, path), text)
  }
  return { cwd, home }
}

export async function send(p: Pane, text: string): Promise<void> {
  await p.type(text)
  await p.keys('Enter')
}

export interface OpenOptions {
  args?: string[]
  env?: Record<string, string>
  waitFor?: string | RegExp
  /** Runs as soon as the pane starts, before modloop is up: keys typed ahead. */
  typeAhead?: (p: Pane) => Promise<void>
}

/**
 * One test file's tmux server; each `open` starts a fake Messages API server and a pane running
 * the built CLI (bin/modloop.cjs, as users run it) in it, both stopped after the test.
 */
export function tmuxSuite(file: string) {
  const socket = `modloop-tui-${basename(file, '.test.ts')}-${process.pid}`
  let entry = ''
  let count = 0
  const state: { pane?: Pane; server?: FakeAnthropic } = {}

  beforeAll(async () => {
    if (!hasTmux) return
    entry = builtCli()
    startServer(socket)
  })

  afterEach(async () => {
    await state.pane?.kill()
    await state.server?.close()
    state.pane = undefined
    state.server = undefined
  })

  afterAll(async () => {
    await killServer(socket)
    // A pane's CLI may still be writing its transcript as it exits after the kill: rm retries a
    // directory that filled again while it was being emptied (ENOTEMPTY).
    await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 5 })))
  })

  return {
    socket,
    state,
    async open(script: unknown, where: Where, o: OpenOptions = {}): Promise<Pane> {
      await state.pane?.kill()
      await state.server?.close()
      state.server = await startFakeAnthropic({ script })
      state.pane = await Pane.start(socket, `t${++count}`, {
        cwd: where.cwd,
        command: [process.execPath, entry, ...(o.args ?? [])],
        env: { ANTHROPIC_BASE_URL: state.server.url, ANTHROPIC_API_KEY: 'test', MODLOOP_HOME: where.home, HOME: where.home, MODLOOP_RETRY_BASE_MS: '1', ...o.env },
      })
      await o.typeAhead?.(state.pane)
      await state.pane.waitFor(o.waitFor ?? 'Ctrl+D exits')
      return state.pane
    },
  }
}
