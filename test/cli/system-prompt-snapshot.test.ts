import { execFileSync } from 'node:child_process'
import { PassThrough } from 'node:stream'
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { transcriptPath } from '../../mods/transcripts/store/paths.js'
import { readLines } from '../sessions/helpers.js'
import { runCli } from '../helpers/cli.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { main } from '../../cli/main.js'

let dir: string
let home: string
beforeAll(async () => {
  home = await realpath(await mkdtemp(join(tmpdir(), 'modloop-prompt-snapshot-home-')))
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-prompt-snapshot-')))
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd: dir, stdio: 'ignore' })
  git('init', '-q')
  await writeFile(join(dir, 'README'), 'one\n')
  git('add', '.')
  git('commit', '-qm', 'init')
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
  await rm(home, { recursive: true, force: true })
})

const env = () => ({ HOME: home, MODLOOP_HOME: join(home, '.modloop') })
const cli = (args: string[], script: unknown = [{ reply: 'ok' }]) => runCli(['-p', ...args, '--output-format', 'json'], { script, cwd: dir, env: env(), stdin: '' })
const system = (r: Awaited<ReturnType<typeof cli>>, i = 0) => (r.requests[i]!.body.system as { text: string }[]).map((b) => b.text)
const sessionOf = (r: Awaited<ReturnType<typeof cli>>) => JSON.parse(r.out).session_id as string
const snapshots = (sessionId: string) => readLines(transcriptPath(dir, sessionId, env())).filter((l) => l.type === 'attachment' && l.attachment.type === 'prompt_snapshot')

describe('--system-prompt-snapshot: the system prompt recorded once per conversation, as in Claude Code', () => {
  it('a resume sends the recorded prompt as it was, whatever its own --append-system-prompt or the repository now say', async () => {
    const first = await cli(['hello', '--append-system-prompt', 'APPEND-ONE'])
    expect(first.code).toBe(0)
    const id = sessionOf(first)
    expect(system(first).at(-1)).toBe('APPEND-ONE')
    expect(snapshots(id).map((l) => l.attachment.systemPrompt.at(-1))).toEqual(['APPEND-ONE'])
    await writeFile(join(dir, 'README'), 'two\n')
    const resumed = await cli(['again', '--resume', id, '--append-system-prompt', 'APPEND-TWO'])
    expect(resumed.code).toBe(0)
    expect(system(resumed)).toEqual(system(first))
    expect(snapshots(id)).toHaveLength(1)

    // Off renders afresh and records nothing; the record is still there for the next resume.
    const off = await cli(['third', '--resume', id, '--append-system-prompt', 'APPEND-THREE', '--system-prompt-snapshot', 'off'])
    expect(system(off).at(-1)).toBe('APPEND-THREE')
    expect(system(off).join('')).toContain('M README')
    const on = await cli(['fourth', '--continue', '--append-system-prompt', 'APPEND-FOUR'])
    expect(system(on)).toEqual(system(first))
    expect(snapshots(id)).toHaveLength(1)
  })

  it('a conversation begun with it off is recorded by its first request with it on', async () => {
    const first = await cli(['hello', '--append-system-prompt', 'B-ONE', '--system-prompt-snapshot', 'off'])
    const id = sessionOf(first)
    expect(snapshots(id)).toHaveLength(0)
    const second = await cli(['again', '--resume', id, '--append-system-prompt', 'B-TWO'])
    const third = await cli(['more', '--resume', id, '--append-system-prompt', 'B-THREE'])
    expect(system(second).at(-1)).toBe('B-TWO')
    expect(system(third)).toEqual(system(second))
  })

  it('a compaction ends the record: its summary request still sends it, the next request renders and records afresh', async () => {
    const first = await cli(['hello', '--append-system-prompt', 'C-ONE'])
    const id = sessionOf(first)
    const compact = await cli(['/compact', '--resume', id, '--append-system-prompt', 'C-TWO'], [{ reply: '<summary>what happened</summary>' }])
    expect(compact.code).toBe(0)
    expect(system(compact).at(-1)).toBe('C-ONE')
    const after = await cli(['after', '--resume', id, '--append-system-prompt', 'C-THREE'])
    expect(system(after).at(-1)).toBe('C-THREE')
    expect(snapshots(id).map((l) => l.attachment.systemPrompt.at(-1))).toEqual(['C-ONE', 'C-THREE'])
    const again = await cli(['again', '--resume', id, '--append-system-prompt', 'C-FOUR'])
    expect(system(again)).toEqual(system(after))
  })

  it('is off under --bare unless asked for', async () => {
    const bare = await cli(['hello', '--bare', '--append-system-prompt', 'D-ONE'])
    expect(snapshots(sessionOf(bare))).toHaveLength(0)
    const asked = await cli(['hello', '--bare', '--system-prompt-snapshot', 'on', '--append-system-prompt', 'D-TWO'])
    expect(snapshots(sessionOf(asked)).map((l) => l.attachment.systemPrompt)).toEqual([system(asked).map((t) => t.replace(/\n\n$/, ''))])
  })

  it('takes only on or off', async () => {
    const r = await cli(['hello', '--system-prompt-snapshot', 'OFF'])
    expect(r.code).toBe(1)
    expect(r.err).toContain("--system-prompt-snapshot must be on or off, not 'OFF'")
    expect(r.requests).toHaveLength(0)
  })

  it("the Agent SDK's systemPrompt.snapshot, which its initialize request carries as systemPromptSnapshot", async () => {
    const sdk = async (snapshot: boolean) => {
      const server = await startFakeAnthropic({ script: [{ reply: 'ok' }] })
      const stdin = new PassThrough()
      let result: any
      const io = {
        stdout: { write: (t: string) => { for (const l of t.split('\n').filter(Boolean)) if (JSON.parse(l).type === 'result') (result = JSON.parse(l), stdin.end()) } },
        stderr: { write: () => {} }, stdin, cwd: dir,
        env: { ...process.env, ...env(), ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test' },
      }
      const code = main(['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json'], io as never)
      stdin.write(`${JSON.stringify({ type: 'control_request', request_id: 'init', request: { subtype: 'initialize', systemPromptSnapshot: snapshot } })}\n`)
      stdin.write(`${JSON.stringify({ type: 'user', session_id: '', message: { role: 'user', content: 'hi' }, parent_tool_use_id: null })}\n`)
      expect(await code).toBe(0)
      await server.close()
      return result.session_id as string
    }
    expect(snapshots(await sdk(false))).toHaveLength(0)
    expect(snapshots(await sdk(true))).toHaveLength(1)
  })
})
