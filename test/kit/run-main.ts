import type { Io } from '../../cli/io.js'
import { main } from '../../cli/main.js'

/** Runs the CLI in-process for commands that need no model. */
export async function runMain(args: string[], cwd: string, env: Record<string, string | undefined> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const io: Io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, cwd, env }
  const code = await main(args, io)
  return { code, out, err }
}
