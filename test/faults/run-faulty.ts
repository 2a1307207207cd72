import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect } from 'vitest'
import { lockPathOf, transcriptPath } from '../../mods/transcripts/store/paths.js'
import { builtModloop } from '../helpers/built-cli.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { rebuilt } from '../sessions/helpers.js'

export interface FaultyRun {
  code: number
  err: string
  messages: Record<string, any>[]
  result: Record<string, any> | undefined
}

/** One Bash call, then an answer: the turn every mod fault is injected into. */
export const BASH_TURN = [{ reply: [{ tool_use: { name: 'Bash', input: { command: 'echo hi' } } }] }, { reply: 'done' }]

/**
 * Runs the built CLI (`-p go --output-format stream-json`) as a real process with a mod file
 * written into `cwd`, against a fake Messages API in this process.
 */
export async function runFaulty(cwd: string, mod: string | undefined, options: { script?: unknown; env?: Record<string, string> } = {}): Promise<FaultyRun> {
  const server = await startFakeAnthropic({ script: options.script ?? BASH_TURN })
  const args = ['-p', 'go', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions']
  if (mod !== undefined) {
    await writeFile(join(cwd, 'faulty.mjs'), mod)
    args.push('--mod', './faulty.mjs')
  }
  try {
    const r = await builtModloop(args, {
      cwd, env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', MODLOOP_HOME: join(cwd, 'home'), MODLOOP_RETRY_BASE_MS: '1', ...options.env },
    })
    const messages = r.out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>)
    return { code: r.code, err: r.err, messages, result: messages.find((m) => m.type === 'result') }
  } finally {
    await server.close()
  }
}

/** What every fault must leave: a whole transcript with no unanswered tool_use, and no lock. */
export function expectCleanEnd(cwd: string, run: FaultyRun): void {
  const sessionId = run.messages.find((m) => m.session_id)?.session_id as string | undefined
  expect(sessionId, 'the run printed no message').toBeDefined()
  const path = transcriptPath(cwd, sessionId!, { MODLOOP_HOME: join(cwd, 'home') })
  expect(existsSync(path), 'no transcript').toBe(true)
  const back = rebuilt(path)
  expect(back.warnings).toEqual([])
  expect(back.repaired, 'a tool_use was left without its tool_result').toBe(0)
  expect(existsSync(lockPathOf(path)), 'the session lock was left behind').toBe(false)
}
