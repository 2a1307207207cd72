import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Readable, Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { client, ndJsonStream, type ClientApp, type ClientContext, type SessionNotification } from '@agentclientprotocol/sdk'
import { expect } from 'vitest'

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
  const child = spawn(process.execPath, [join(root, 'bin', 'modloop.cjs'), 'acp', ...args], { cwd: o.cwd, env: o.env, stdio: 'pipe' })
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
