import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable, Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { client, ndJsonStream, type ClientApp, type ClientContext, type SessionNotification } from '@agentclientprotocol/sdk'
import { afterAll, afterEach, expect } from 'vitest'
import type { FakeAnthropic } from './fake-anthropic.js'
import { builtCli } from './built-cli.js'

const root = fileURLToPath(new URL('../../', import.meta.url))

export interface AgentProcess {
  agent: ClientContext
  child: ChildProcessWithoutNullStreams
  updates: SessionNotification[]
  stderr: () => string
  close(): Promise<void>
}

/**
 * The built CLI's `modloop acp` as a real child process, driven by the ACP SDK's own client side.
 * `setup` registers the client's request handlers (permission, fs, terminal) on the app.
 */
export function startAgent(args: string[], o: { cwd: string; env: Record<string, string | undefined>; setup?: (app: ClientApp) => ClientApp }): AgentProcess {
  expect(existsSync(join(root, 'dist', 'bin', 'main.cjs')), 'run `npm run build` first').toBe(true)
  const child = spawn(process.execPath, [builtCli(), 'acp', ...args], { cwd: o.cwd, env: o.env, stdio: 'pipe' })
  let err = ''
  child.stderr.on('data', (d: Buffer) => { err += d.toString() })
  const updates: SessionNotification[] = []
  const app = (o.setup ?? ((a) => a))(client({ name: 'modloop-test' }).onNotification('session/update', ({ params }) => { updates.push(params) }))
  const stream = ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>)
  const connection = app.connect(stream)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return {
    agent: connection.agent, child, updates, stderr: () => err,
    close: async () => {
      connection.close()
      child.stdin.end()
      await exited
    },
  }
}

/** The text of the chunks of one kind, joined. */
export function chunks(updates: SessionNotification[], kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk'): string {
  return updates.map((n) => n.update).map((u) => (u.sessionUpdate === kind && u.content.type === 'text' ? u.content.text : '')).join('')
}

/** The JSON-RPC error code a rejected request carried. */
export async function errorCode(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p
    return undefined
  } catch (err) {
    return (err as { code?: number }).code
  }
}

/**
 * The frame of an ACP test file: a temp dir with a home (removed after the file's tests), the
 * agent and server each test started closed after it (`started` gives them, `reset` forgets them),
 * and the environment an agent talking to a server gets.
 */
export function acpTestBed(prefix: string, started: () => [AgentProcess | undefined, FakeAnthropic | undefined], reset: () => void) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  mkdirSync(join(dir, 'home'))
  afterEach(async () => {
    const [agent, server] = started()
    await agent?.close()
    await server?.close()
    reset()
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const envFor = (s: FakeAnthropic) => ({
    ...process.env, HOME: join(dir, 'home'), MODLOOP_HOME: join(dir, 'home'), ANTHROPIC_BASE_URL: s.url, ANTHROPIC_API_KEY: 'test', MODLOOP_RETRY_BASE_MS: '1',
  })
  return { dir, envFor }
}
