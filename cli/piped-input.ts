import { fstatSync } from 'node:fs'
import type { Io } from './io.js'

/**
 * How long a prompt given on the command line waits for the first of any input piped beside it
 * (MODLOOP_STDIN_WAIT_MS sets another: longer for a slow command at the pipe's other end).
 */
export const PIPED_WAIT_MS = 3000

/**
 * The prompt of a `-p` run. Words on the command line come first; input piped beside them follows
 * on a line of its own (`git diff | modloop -p "review this"`), as `claude -p` has it. With no
 * words, standard input is the whole prompt, read to its end.
 */
export async function headlessPrompt(positionals: readonly string[], io: Io, waitMs = stdinWaitMs(io.env)): Promise<string> {
  if (positionals.length === 0) return mayCarryInput(io) ? readAll(io.stdin!) : ''
  const given = positionals.join(' ')
  if (!mayCarryInput(io)) return given
  const piped = await readPiped(io, waitMs)
  return piped === '' ? given : `${given}\n${piped}`
}

function stdinWaitMs(env: Io['env']): number {
  const ms = Number(env.MODLOOP_STDIN_WAIT_MS)
  return env.MODLOOP_STDIN_WAIT_MS !== undefined && Number.isFinite(ms) && ms >= 0 ? ms : PIPED_WAIT_MS
}

/**
 * Whether standard input may carry a prompt: not a terminal, and for the CLI's own process a pipe,
 * socket or file rather than /dev/null or a closed descriptor, told from fd 0 itself, because
 * process.stdin builds its stream on first access (~5 ms) and a one-turn run with its prompt on
 * the command line and nothing piped should not pay for it.
 */
function mayCarryInput(io: Io): boolean {
  if (io.ownsProcess) {
    try {
      const stat = fstatSync(0)
      if (!stat.isFIFO() && !stat.isSocket() && !stat.isFile()) return false
    } catch {
      return false // fd 0 closed
    }
  }
  const stdin = io.stdin
  return stdin !== undefined && (stdin as { isTTY?: boolean }).isTTY !== true
}

// Bytes joined before decoding: a character split between two chunks stays whole.
async function readAll(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * What was piped in, read to its end once something comes. A pipe that stays silent for `waitMs`
 * is most often one a parent process opened and never closes (Node's execFile does so), so the
 * run goes on without it, saying so, rather than waiting for ever.
 */
async function readPiped(io: Io, waitMs: number): Promise<string> {
  const stdin = io.stdin!
  const chunks = stdin[Symbol.asyncIterator]()
  let timer: NodeJS.Timeout | undefined
  const silent = new Promise<'silent'>((resolve) => { timer = setTimeout(resolve, waitMs, 'silent') })
  const first = await Promise.race([chunks.next(), silent]).finally(() => clearTimeout(timer))
  if (first === 'silent') {
    // Let go of the pipe, so it does not hold the process open either. (The pending read settles
    // into the race above, which has handled it.)
    ;(stdin as { destroy?: () => void }).destroy?.()
    io.stderr.write(`modloop: nothing came on standard input within ${waitMs / 1000} s; going on with the prompt alone (give < /dev/null to skip the wait)\n`)
    return ''
  }
  if (first.done) return ''
  const bytes: Buffer[] = [Buffer.from(first.value as Buffer)]
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) bytes.push(Buffer.from(next.value as Buffer))
  return Buffer.concat(bytes).toString('utf8')
}
