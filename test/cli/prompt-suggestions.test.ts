import { mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-suggestions-')))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

// A turn of two answers (a tool call, then the answer): the guess is asked for after it.
const twoAnswers = (guess: unknown) => [
  { reply: [{ tool_use: { name: 'Glob', input: { pattern: '*.none' } } }] },
  { reply: 'Done.' },
  guess,
]

const run = async (script: unknown[], extra: string[], home = dir) => {
  const r = await runCli(['-p', 'go', '--output-format', 'stream-json', '--verbose', ...extra], { script, cwd: dir, env: { HOME: home, MODLOOP_HOME: home } })
  return { ...r, lines: r.out.trim().split('\n').map((l) => JSON.parse(l)) }
}

describe('--prompt-suggestions', () => {
  it('sends a prompt_suggestion after the result, from a request over the conversation; it is not recorded', async () => {
    const home = await mkdtemp(join(dir, 'home-'))
    const r = await run(twoAnswers({ reply: '  deploy the staging branch  ' }), ['--prompt-suggestions'], home)
    expect(r.code).toBe(0)
    expect(r.lines.slice(-2).map((l) => l.type)).toEqual(['result', 'prompt_suggestion'])
    const s = r.lines.at(-1)
    expect(s).toEqual({ type: 'prompt_suggestion', suggestion: 'deploy the staging branch', uuid: expect.any(String), session_id: r.lines[0].session_id })
    expect(r.requests).toHaveLength(3)
    const [main, , fork] = r.requests.map((q) => q.body as { model: string; system: unknown; tools: unknown[]; messages: { role: string }[] })
    expect(fork!.model).toBe(main!.model)
    expect(fork!.tools).toEqual(main!.tools)
    expect(fork!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user'])
    expect(r.err).toBe('')
    const projects = join(home, 'projects')
    const [project] = await readdir(projects)
    const transcript = (await readdir(join(projects, project!))).find((f) => f.endsWith('.jsonl') && !f.endsWith('.trace.jsonl'))!
    expect(await readFile(join(projects, project!, transcript), 'utf8')).not.toContain('staging branch')
  })

  it('asks nothing after the first answer of a conversation, nor without the flag', async () => {
    const first = await run([{ reply: 'hello' }, { reply: 'unused' }], ['--prompt-suggestions'])
    expect(first.requests).toHaveLength(1)
    const off = await run(twoAnswers({ reply: 'unused' }), [])
    expect(off.requests).toHaveLength(2)
    const no = await run(twoAnswers({ reply: 'unused' }), ['--prompt-suggestions', 'false'])
    expect(no.requests).toHaveLength(2)
    for (const r of [first, off, no]) expect(r.lines.at(-1).type).toBe('result')
  })

  it('says nothing when the request fails or the guess is empty or not worth showing', async () => {
    for (const guess of [{ error: { status: 400, message: 'bad' } }, { reply: '' }, { reply: 'Thanks, looks good' }]) {
      const r = await run(twoAnswers(guess), ['--prompt-suggestions'])
      expect(r.code).toBe(0)
      expect(r.requests).toHaveLength(3)
      expect(r.lines.at(-1).type).toBe('result')
    }
  })

  it('is refused on an output other than stream-json, as Claude Code refuses it; off, it is taken anywhere', async () => {
    const r = await runCli(['-p', 'go', '--prompt-suggestions'], { script: [], cwd: dir, env: { HOME: dir } })
    expect(r.code).toBe(1)
    expect(r.err).toContain('--prompt-suggestions requires --output-format stream-json')
    const off = await runCli(['-p', 'go', '--output-format', 'json', '--prompt-suggestions', 'off'], { script: [{ reply: 'hi' }], cwd: dir, env: { HOME: dir } })
    expect(off.code).toBe(0)
  })

  it('refuses a value that is no switch', async () => {
    const r = await runCli(['-p', 'go', '--prompt-suggestions', 'maybe'], { script: [], cwd: dir, env: { HOME: dir } })
    expect(r.code).toBe(1)
    expect(r.err).toContain('--prompt-suggestions takes true, false')
  })
})
