import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import type { Io } from '../../cli/io.js'
import { headlessPrompt } from '../../cli/piped-input.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { builtCli } from '../helpers/built-cli.js'

const dir = mkdtempSync(join(tmpdir(), 'modloop-piped-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** An in-process io whose stdin is `stdin`; what the run says on stderr is kept. */
function ioWith(stdin: NodeJS.ReadableStream | undefined): Io & { said: string[] } {
  const said: string[] = []
  return { stdout: { write: () => true }, stderr: { write: (t: string) => said.push(t) }, stdin, cwd: dir, env: {}, said }
}

function ended(...chunks: (string | Buffer)[]): PassThrough {
  const s = new PassThrough()
  for (const c of chunks) s.write(c)
  s.end()
  return s
}

describe('the prompt of a -p run (claude -p takes words and piped input the same way)', () => {
  it('puts what was piped in after the words, on a line of its own', async () => {
    const io = ioWith(ended('diff --git a/x b/x\n', '+one line\n'))
    expect(await headlessPrompt(['review', 'this'], io)).toBe('review this\ndiff --git a/x b/x\n+one line\n')
    expect(io.said).toEqual([])
  })

  it('takes the words alone when the pipe closes empty, or standard input is a terminal (never read)', async () => {
    expect(await headlessPrompt(['hi'], ioWith(ended()))).toBe('hi')
    const tty = Object.assign(new PassThrough(), { isTTY: true })
    tty.write('typed ahead')
    expect(await headlessPrompt(['hi'], ioWith(tty))).toBe('hi')
    expect(tty.readableLength).toBeGreaterThan(0)
  })

  it('waits for input that begins late, then reads it to its end', async () => {
    const late = new PassThrough()
    const prompt = headlessPrompt(['sum up'], ioWith(late), 60_000)
    setImmediate(() => { late.write('first\n'); setImmediate(() => late.end('second\n')) })
    expect(await prompt).toBe('sum up\nfirst\nsecond\n')
  })

  it('goes on with the words alone when a pipe left open stays silent, says so, and lets go of the pipe', async () => {
    const open = new PassThrough()
    const io = ioWith(open)
    expect(await headlessPrompt(['hi'], io, 5)).toBe('hi')
    expect(io.said.join('')).toMatch(/nothing came on standard input within 0\.005 s; going on with the prompt alone/)
    expect(open.destroyed).toBe(true)
  })

  it('with no words, standard input is the prompt, a character split between chunks kept whole', async () => {
    const euro = Buffer.from('price: 5 €\n')
    const cut = euro.length - 2
    expect(await headlessPrompt([], ioWith(ended(euro.subarray(0, cut), euro.subarray(cut))))).toBe('price: 5 €\n')
    expect(await headlessPrompt([], ioWith(undefined))).toBe('')
  })
})

describe('the built CLI with input piped beside its prompt', () => {
  /** `modloop -p <words>` with a pipe on stdin that `feed` writes to; the first request's user text and stderr. */
  async function piped(words: string, feed: (stdin: NodeJS.WritableStream) => void, env: Record<string, string> = {}) {
    const server = await startFakeAnthropic({ script: [{ reply: 'Seen.' }] })
    try {
      const child = spawn(process.execPath, [builtCli(), '-p', words], {
        cwd: dir, env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', HOME: dir, MODLOOP_HOME: join(dir, 'home'), ...env },
      })
      let out = ''
      let err = ''
      child.stdout.on('data', (d) => (out += d))
      child.stderr.on('data', (d) => (err += d))
      feed(child.stdin)
      const code = await new Promise((resolve) => child.once('close', resolve))
      const first = (server.requests[0]?.body.messages as { content: { text?: string }[] }[] | undefined)?.[0]?.content[0]?.text
      return { code, out, err, first, stdin: child.stdin }
    } finally {
      await server.close()
    }
  }

  it('`printf … | modloop -p "review this"` sends the words, then what was piped', async () => {
    const run = await piped('review this', (stdin) => stdin.end('line one\nline two\n'))
    expect(run).toMatchObject({ code: 0, first: 'review this\nline one\nline two\n' })
    expect(run.out).toContain('Seen.')
    expect(run.err).toBe('')
  })

  it('a parent that leaves the pipe open and silent gets the run of its words, and a warning', async () => {
    const run = await piped('hi', () => {}, { MODLOOP_STDIN_WAIT_MS: '50' })
    run.stdin.destroy()
    expect(run).toMatchObject({ code: 0, first: 'hi' })
    expect(run.err).toContain('nothing came on standard input within 0.05 s')
  })
})
