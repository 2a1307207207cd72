import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { expect } from 'vitest'
import { lockPathOf, transcriptPath } from '../../mods/transcripts/store/paths.js'
import { builtModloop } from '../helpers/built-cli.js'
import { startFakeAnthropic, type FakeRequest } from '../helpers/fake-anthropic.js'
import { rebuilt } from '../sessions/helpers.js'

export interface FaultyRun {
  code: number
  err: string
  messages: Record<string, any>[]
  result: Record<string, any> | undefined
  /** What the fake Messages API was sent, in order. */
  requests: FakeRequest[]
}

export interface FaultyOptions {
  script?: unknown
  env?: Record<string, string>
  /** Arguments after `-p <prompt> --output-format stream-json --verbose`; the permission flag by default. */
  args?: string[]
  prompt?: string
}

/** One Bash call, then an answer: the turn every mod fault is injected into. */
export const BASH_TURN = [{ reply: [{ tool_use: { name: 'Bash', input: { command: 'echo hi' } } }] }, { reply: 'done' }]

/**
 * The variable every process of a faulty run inherits (the CLI, its hooks, its Bash commands and
 * whatever they start): a process still carrying it after the run is one the run left behind.
 */
export const RUN_MARK = 'MODLOOP_FAULT_RUN'

/**
 * Runs the built CLI (`-p go --output-format stream-json`) as a real process with a mod file
 * written into `cwd`, against a fake Messages API in this process.
 */
export async function runFaulty(cwd: string, mod: string | undefined, options: FaultyOptions = {}): Promise<FaultyRun> {
  const server = await startFakeAnthropic({ script: options.script ?? BASH_TURN })
  const args = ['-p', options.prompt ?? 'go', '--output-format', 'stream-json', '--verbose', ...(options.args ?? ['--dangerously-skip-permissions'])]
  if (mod !== undefined) {
    await writeFile(join(cwd, 'faulty.mjs'), mod)
    args.push('--mod', './faulty.mjs')
  }
  try {
    const r = await builtModloop(args, { cwd, env: faultyEnv(cwd, server.url, options.env) })
    return { code: r.code, err: r.err, requests: server.requests, ...parseStream(r.out) }
  } finally {
    await server.close()
  }
}

/** The environment of a faulty run in `cwd`: its own modloop home, the fake API, the run mark. */
export function faultyEnv(cwd: string, apiUrl: string, extra: Record<string, string> = {}): Record<string, string | undefined> {
  return {
    ...process.env, ANTHROPIC_BASE_URL: apiUrl, ANTHROPIC_API_KEY: 'test', HOME: join(cwd, 'home'), MODLOOP_HOME: join(cwd, 'home', '.modloop'),
    MODLOOP_RETRY_BASE_MS: '1', [RUN_MARK]: cwd, ...extra,
  }
}

/** stream-json output as messages, and its result. */
export function parseStream(out: string): { messages: Record<string, any>[]; result: Record<string, any> | undefined } {
  const messages = out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>)
  return { messages, result: messages.find((m) => m.type === 'result') }
}

/**
 * What every fault must leave: a whole transcript with no unanswered tool_use, no lock, and no
 * process of the run still alive. `transcript: false` for a run that recorded nothing (a session
 * with no message writes no file); `repaired` for a session killed mid-call, whose file keeps the
 * cut call unanswered (every read answers it). Returns the transcript's path.
 */
export async function expectCleanEnd(cwd: string, run: Pick<FaultyRun, 'messages'>, o: { transcript?: boolean; repaired?: number } = {}): Promise<string> {
  const sessionId = run.messages.find((m) => m.session_id)?.session_id as string | undefined
  expect(sessionId, 'the run printed no message').toBeDefined()
  const path = transcriptPath(cwd, sessionId!, { MODLOOP_HOME: join(cwd, 'home', '.modloop') })
  expect(existsSync(path), o.transcript === false ? 'a transcript' : 'no transcript').toBe(o.transcript !== false)
  if (o.transcript !== false) {
    const back = rebuilt(path)
    expect(back.warnings).toEqual([])
    expect(back.repaired, 'a tool_use was left without its tool_result').toBe(o.repaired ?? 0)
  }
  expect(existsSync(lockPathOf(path)), 'the session lock was left behind').toBe(false)
  expect(await leftoversOf(cwd), 'a process of the run is still alive').toEqual([])
  return path
}

/**
 * Live processes carrying the run mark of `cwd`, with their command lines. A process killed as
 * the CLI exited may still be on its way out, so this asks a few times before it answers.
 */
export async function leftoversOf(cwd: string): Promise<string[]> {
  let left = marked(cwd)
  for (let i = 0; i < 20 && left.length > 0; i++) {
    await sleep(50)
    left = marked(cwd)
  }
  return left
}

// Read from /proc: the environment a process started with, and its state (zombies are gone).
function marked(cwd: string): string[] {
  if (!existsSync('/proc/self/environ')) return []
  const needle = `\0${RUN_MARK}=${cwd}\0`
  const found: string[] = []
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue
    try {
      if (!`\0${readFileSync(`/proc/${pid}/environ`, 'latin1')}`.includes(needle)) continue
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
      if (/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))) continue
      found.push(`${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'latin1').replaceAll('\0', ' ').trim()}`)
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found
}
