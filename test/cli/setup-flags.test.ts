import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

// Each hook appends a line to a log: the order they ran in, and each one's stdin.
let dir: string
let home: string
let log: string
beforeEach(async () => {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'modloop-setup-flags-')))
  dir = join(root, 'project')
  home = join(root, 'home')
  log = join(root, 'hooks.log')
  await mkdir(join(dir, '.claude'), { recursive: true })
  await mkdir(home)
  const record = (name: string) => ({ type: 'command', command: `printf '%s ' ${name} >> "${log}"; cat >> "${log}"; echo >> "${log}"` })
  const context = { type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"Setup","additionalContext":"dependencies installed"}}'` }
  await writeFile(join(dir, '.claude', 'settings.json'), JSON.stringify({
    hooks: {
      Setup: [{ matcher: 'init', hooks: [record('setup-init'), context] }, { matcher: 'maintenance', hooks: [record('setup-maintenance')] }],
      SessionStart: [{ hooks: [record('session-start'), { type: 'command', command: 'echo started context' }] }],
      SessionEnd: [{ hooks: [record('session-end')] }],
    },
  }))
})
afterEach(() => rm(join(dir, '..'), { recursive: true, force: true }))

const cli = (args: string[]) => runCli(args, { script: [{ reply: 'ok' }], cwd: dir, env: { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude') }, stdin: '' })
const ran = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []).map((line) => {
  const [name, ...rest] = line.split(' ')
  return { name: name!, input: JSON.parse(rest.join(' ')) as Record<string, unknown> }
})
const firstRequest = (r: Awaited<ReturnType<typeof cli>>) => JSON.stringify(r.requests[0]!.body)

describe('--init, --init-only and --maintenance run the Setup hooks, as in Claude Code', () => {
  it('-p --init runs the init Setup hooks before SessionStart, and their context opens the first prompt', async () => {
    const r = await cli(['-p', 'hi', '--init'])
    expect(r.code).toBe(0)
    expect(ran().map((h) => h.name)).toEqual(['setup-init', 'session-start', 'session-end'])
    const setup = ran()[0]!.input
    expect(setup).toMatchObject({ hook_event_name: 'Setup', trigger: 'init', cwd: dir })
    expect(setup.session_id).toBe(ran()[1]!.input.session_id)
    expect(typeof setup.transcript_path).toBe('string')
    expect(setup).not.toHaveProperty('permission_mode')
    const body = firstRequest(r)
    expect(body).toContain('dependencies installed')
    expect(body.indexOf('dependencies installed')).toBeLessThan(body.indexOf('started context'))
  })

  it('--maintenance runs only the hooks matching maintenance, then the session as usual', async () => {
    const r = await cli(['-p', 'hi', '--maintenance'])
    expect(r.code).toBe(0)
    expect(ran().map((h) => h.name)).toEqual(['setup-maintenance', 'session-start', 'session-end'])
    expect(ran()[0]!.input.trigger).toBe('maintenance')
    expect(firstRequest(r)).not.toContain('dependencies installed')
  })

  it('without one of the flags no Setup hook runs', async () => {
    const r = await cli(['-p', 'hi'])
    expect(r.code).toBe(0)
    expect(ran().map((h) => h.name)).toEqual(['session-start', 'session-end'])
  })

  it('--init-only runs the Setup hooks and exits: no terminal needed, no prompt, no request, no SessionStart or SessionEnd, no transcript', async () => {
    const r = await cli(['--init-only'])
    expect(r.code).toBe(0)
    expect(r.out).toBe('')
    expect(ran().map((h) => h.name)).toEqual(['setup-init'])
    expect(ran()[0]!.input.trigger).toBe('init')
    expect(r.requests).toHaveLength(0)
    const projects = join(home, '.modloop', 'projects')
    const transcripts = existsSync(projects) ? readdirSync(projects, { recursive: true }).map(String).filter((f) => f.endsWith('.jsonl')) : []
    expect(transcripts).toEqual([])
    // The same with -p.
    const p = await cli(['-p', '--init-only'])
    expect(p.code).toBe(0)
    expect(ran().map((h) => h.name)).toEqual(['setup-init', 'setup-init'])
  })

  it('refuses a prompt with --init-only, and two of the flags together, before any hook runs', async () => {
    const withPrompt = await cli(['--init-only', 'hi'])
    expect(withPrompt.code).toBe(1)
    expect(withPrompt.err).toContain('--init-only runs the Setup hooks and exits: it takes no prompt')
    const both = await cli(['-p', 'hi', '--init', '--maintenance'])
    expect(both.code).toBe(1)
    expect(both.err).toContain('--init and --maintenance cannot be given together: pick one')
    expect(ran()).toEqual([])
    expect(both.requests).toHaveLength(0)
  })

  it('a query() given them as extraArgs runs the Setup hooks the same way', async () => {
    const { query } = await import('../../index.js')
    const { startFakeAnthropic } = await import('../helpers/fake-anthropic.js')
    const server = await startFakeAnthropic({ script: [{ reply: 'ok' }] })
    try {
      const env = { ...process.env, HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude'), ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test' }
      for await (const m of query({ prompt: 'hi', options: { cwd: dir, env, extraArgs: { maintenance: null } } })) void m
    } finally {
      await server.close()
    }
    expect(ran().map((h) => h.name)).toEqual(['setup-maintenance', 'session-start', 'session-end'])
  })
})
