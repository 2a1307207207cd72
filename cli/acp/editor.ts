import { RequestError, type AgentContext, type ClientCapabilities } from '@agentclientprotocol/sdk'
import type { Editor, TerminalOutcome, TerminalRun } from '../../mods/acp-client/index.js'

/**
 * The editor's side of a session, over the connection: its buffers when it offers both fs
 * methods, its terminals when it offers them. `onTerminal` tells the session a terminal now
 * shows a tool call, so the editor can embed it in the call.
 */
export function editorOf(client: AgentContext, caps: ClientCapabilities | undefined, sessionId: string, onTerminal: (toolUseId: string, terminalId: string) => void): Editor {
  const editor: Editor = {}
  if (caps?.fs?.readTextFile && caps.fs.writeTextFile) {
    editor.readTextFile = async (path) => (await client.request('fs/read_text_file', { sessionId, path }).catch(withDetails)).content
    editor.writeTextFile = async (path, content) => {
      await client.request('fs/write_text_file', { sessionId, path, content }).catch(withDetails)
    }
  }
  if (caps?.terminal) editor.runInTerminal = (run) => inTerminal(client, sessionId, run, onTerminal)
  return editor
}

async function inTerminal(client: AgentContext, sessionId: string, run: TerminalRun, onTerminal: (toolUseId: string, terminalId: string) => void): Promise<TerminalOutcome> {
  const terminal = await client.createTerminal({ sessionId, command: 'bash', args: ['-c', run.command], cwd: run.cwd, env: run.env, outputByteLimit: run.outputByteLimit }).catch(withDetails)
  onTerminal(run.toolUseId, terminal.id)
  let timedOut = false
  let stop: () => void = () => {}
  const stopped = new Promise<'stopped'>((resolve) => {
    const timer = setTimeout(() => { timedOut = true; resolve('stopped') }, run.timeoutMs)
    const onAbort = () => resolve('stopped')
    run.signal.addEventListener('abort', onAbort, { once: true })
    stop = () => { clearTimeout(timer); run.signal.removeEventListener('abort', onAbort) }
  })
  try {
    const first = await Promise.race([terminal.waitForExit(), stopped])
    if (first === 'stopped') await terminal.kill()
    const out = await terminal.currentOutput()
    const exit = first === 'stopped' ? out.exitStatus ?? {} : first
    return {
      output: out.output, truncated: out.truncated, exitCode: exit.exitCode ?? null, signal: exit.signal ?? null,
      timedOut, aborted: first === 'stopped' && !timedOut,
    }
  } finally {
    stop()
    await terminal.release().catch(() => {})
  }
}

/**
 * An editor's error with what it said in `data`: a client's handler that throws a plain error
 * answers "Internal error" with the cause only there (`{ details: "ENOENT: …" }`, or a string from
 * a Rust client). Without it the model sees "Internal error", and a missing file is not told apart.
 */
function withDetails(err: unknown): never {
  throw detailed(err)
}

/** `err` with what the editor said in its data added to the message (see withDetails); any other error as it is. */
export function detailed(err: unknown): unknown {
  if (!(err instanceof RequestError) || err.data === undefined) return err
  const data = err.data as { details?: unknown; message?: unknown } | null
  const said = typeof data === 'string' ? data : typeof data?.details === 'string' ? data.details : typeof data?.message === 'string' ? data.message : undefined
  if (!said || err.message.includes(said)) return err
  return new RequestError(err.code, `${err.message}: ${said}`, err.data)
}
