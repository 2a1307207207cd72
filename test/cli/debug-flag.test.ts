import { spawn } from 'node:child_process'
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { builtCli } from '../helpers/built-cli.js'

let dir: string
let home: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-debug-flag-')))
  await mkdir(join(dir, '.claude'))
  await writeFile(join(dir, '.claude', 'settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo from-hook' }] }] } }))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const cli = async (args: string[], env: Record<string, string> = {}) => {
  home = await mkdtemp(join(dir, 'home-'))
  return runCli(args, { script: [{ reply: 'ok' }], cwd: dir, env: { HOME: home, ...env }, stdin: '' })
}
const lastPrompt = (body: unknown) => {
  const messages = (body as { messages: { content: string | { text?: string }[] }[] }).messages
  const content = messages[messages.length - 1]!.content
  return typeof content === 'string' ? content : content.map((c) => c.text ?? '')
}
const debugFiles = () => readdirSync(join(home, '.claude', 'debug')).filter((f) => f.endsWith('.txt'))

describe('--debug [filter] and --debug-file write a debug log, as in Claude Code', () => {
  it('--debug hooks takes the filter (not the prompt) and logs each hook run to ~/.claude/debug/<session>.txt', async () => {
    const r = await cli(['--debug', 'hooks', '-p', 'hi', '--output-format', 'json'])
    expect(r.code).toBe(0)
    expect(lastPrompt(r.requests[0]!.body)).toContain('hi')
    expect(lastPrompt(r.requests[0]!.body)).not.toContain('hooks hi')
    const sessionId = JSON.parse(r.out).session_id
    expect(debugFiles()).toEqual([`${sessionId}.txt`])
    const log = readFileSync(join(home, '.claude', 'debug', `${sessionId}.txt`), 'utf8')
    expect(log).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z \[DEBUG\] shell-hooks: UserPromptSubmit \[echo from-hook\] success, status 0/m)
    expect(readlinkSync(join(home, '.claude', 'debug', 'latest'))).toBe(join(home, '.claude', 'debug', `${sessionId}.txt`))
    expect(r.err).not.toContain('not honoured')
  })

  it('--debug=!hooks leaves hook runs out; -d alone and --debug=mcp are taken', async () => {
    const negated = await cli(['-p', 'hi', '--debug=!hooks'])
    expect(negated.code).toBe(0)
    expect(readFileSync(join(home, '.claude', 'debug', debugFiles()[0]!), 'utf8')).not.toContain('shell-hooks')
    const bare = await cli(['-p', 'hi', '-d'])
    expect(bare.code).toBe(0)
    expect(readFileSync(join(home, '.claude', 'debug', debugFiles()[0]!), 'utf8')).toContain('shell-hooks: UserPromptSubmit')
    const other = await cli(['-p', 'hi', '--debug=mcp'])
    expect(other.code).toBe(0)
    expect(readFileSync(join(home, '.claude', 'debug', debugFiles()[0]!), 'utf8')).not.toContain('shell-hooks')
  })

  it('--debug-file writes there (appending) and turns the log on by itself', async () => {
    const file = join(dir, 'logs', 'debug.log')
    await mkdir(join(dir, 'logs'))
    await writeFile(file, 'earlier\n')
    const r = await cli(['-p', 'hi', '--debug-file', file])
    expect(r.code).toBe(0)
    const log = readFileSync(file, 'utf8')
    expect(log.startsWith('earlier\n')).toBe(true)
    expect(log).toContain('shell-hooks: UserPromptSubmit [echo from-hook]')
    expect(existsSync(join(home, '.claude', 'debug'))).toBe(false)
  })

  it('a CLAUDE_CODE_EXTRA_BODY that is not a JSON object is ignored, and named in the debug log as an api error', async () => {
    for (const bad of ['not json', '[1,2]']) {
      const file = join(dir, `extra-${bad.length}.log`)
      const r = await cli(['-p', 'hi', '--debug-file', file], { CLAUDE_CODE_EXTRA_BODY: bad })
      expect(r.code).toBe(0)
      expect(r.out).toBe('ok\n')
      const log = readFileSync(file, 'utf8')
      expect(log).toContain(`[ERROR] api: CLAUDE_CODE_EXTRA_BODY must be a JSON object; it is ignored, and was: ${bad}\n`)
      expect(log).toMatch(/\[DEBUG\] api: POST \/v1\/messages model=/)
    }
  })

  it('--debug-to-stderr writes the log to stderr, after what is there already when it is a file', async () => {
    const server = await startFakeAnthropic({ script: [{ reply: 'ok' }] })
    home = await mkdtemp(join(dir, 'home-'))
    const errFile = join(home, 'stderr.txt')
    const fd = openSync(errFile, 'w')
    const bin = builtCli()
    const env = { ...process.env, HOME: home, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test' }
    const child = spawn(process.execPath, [bin, '-p', 'hi', '--debug-to-stderr'], { cwd: dir, env, stdio: ['ignore', 'ignore', fd] })
    const code = await new Promise((done) => child.on('exit', done))
    closeSync(fd)
    await server.close()
    expect(code).toBe(0)
    const err = readFileSync(errFile, 'utf8')
    // The unreviewed project hook's warning goes to stderr too, between the debug lines.
    expect(err).toMatch(/^modloop: shell-hooks: ran a project hook not yet reviewed/m)
    expect(err).toMatch(/^\S+Z \[DEBUG\] shell-hooks: UserPromptSubmit \[echo from-hook\] success, status 0 \(\d+ms\)$/m)
    expect(err).toMatch(/^\S+Z \[WARN\] shell-hooks: ran a project hook not yet reviewed/m)
    expect(existsSync(join(home, '.claude', 'debug'))).toBe(false)
  })
})
