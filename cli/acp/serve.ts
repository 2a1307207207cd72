import { Readable } from 'node:stream'
import type { CommandRun } from '../command.js'
import { queryOptions } from '../headless.js'

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/**
 * `modloop acp`: serves the Agent Client Protocol on standard input and output (one JSON-RPC
 * message a line) until the editor closes the connection; logs go to standard error. Sessions
 * still open when it closes end as an interrupted session ends.
 */
export const acp: CommandRun = async ({ values, io }) => {
  const options = queryOptions(values, io)
  const log = (line: string) => void io.stderr.write(`modloop: ${line}\n`)
  const [{ ndJsonStream }, { modloopAgent }] = await Promise.all([import('@agentclientprotocol/sdk'), import('./agent.js')])
  const { app, closeAll } = modloopAgent({ ...options, log }, log)
  const stdin = (io.stdin ?? process.stdin) as Readable
  const text = new TextDecoder()
  const output = new WritableStream<Uint8Array>({ write: (chunk) => void io.stdout.write(text.decode(chunk, { stream: true })) })
  const connection = app.connect(ndJsonStream(output, Readable.toWeb(stdin) as ReadableStream<Uint8Array>))
  const stop = () => connection.close()
  const signals = io.ownsProcess ? STOP_SIGNALS : []
  for (const s of signals) process.once(s, stop)
  try {
    await connection.closed
  } finally {
    for (const s of signals) process.off(s, stop)
    await closeAll()
  }
  return 0
}
