import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { builtModloop } from '../helpers/built-cli.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'

const dir = mkdtempSync(join(tmpdir(), 'modloop-settings-once-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** One settings file's accesses in a run: reads (a read or an open), stats, listings. */
interface Accesses { read: number; stat: number; list: number }

/**
 * A preload that counts, by path, every read, open, stat and listing of a settings file
 * (settings.json, settings.local.json, managed-settings*), through fs and fs/promises alike,
 * and writes the counts at exit.
 */
function countingPreload(report: string): string {
  const file = join(dir, `${report}.cjs`)
  writeFileSync(file, `const fs = require('node:fs'); const fsp = require('node:fs/promises')
const counts = {}
const kinds = { readFile: 'read', readFileSync: 'read', open: 'read', openSync: 'read', stat: 'stat', statSync: 'stat', lstat: 'stat', lstatSync: 'stat', existsSync: 'stat', access: 'stat', accessSync: 'stat', readdir: 'list', readdirSync: 'list', opendir: 'list', opendirSync: 'list' }
const wrap = (obj) => { for (const [name, kind] of Object.entries(kinds)) { const orig = obj[name]; if (typeof orig !== 'function') continue
  obj[name] = function (p, ...rest) { const path = String(p); if (/(^|[\\\\/])(settings(\\.local)?\\.json|managed-settings(\\.json|\\.d))$/.test(path)) { const c = counts[path] ??= { read: 0, stat: 0, list: 0 }; c[kind]++ } return orig.call(this, p, ...rest) } } }
wrap(fs); wrap(fsp)
process.on('exit', () => fs.writeFileSync(${JSON.stringify(join(dir, `${report}.json`))}, JSON.stringify(counts)))\n`)
  return file
}

interface Setup { project: string; home: string; files: Record<string, unknown> }

/** A small git repository with user, project and local settings, and a --settings file beside it. */
function setUp(name: string, files: Record<string, unknown>): Setup {
  const project = join(dir, name, 'project')
  const home = join(dir, name, 'home')
  mkdirSync(join(home, '.claude'), { recursive: true })
  mkdirSync(join(project, '.claude'), { recursive: true })
  execFileSync('git', ['init', '-q'], { cwd: project })
  writeFileSync(join(project, 'README.md'), '# demo\n')
  for (const [path, json] of Object.entries(files)) {
    mkdirSync(join(path.startsWith('~/') ? home : project, path.replace(/^~\//, ''), '..'), { recursive: true })
    writeFileSync(path.startsWith('~/') ? join(home, path.slice(2)) : join(project, path), typeof json === 'string' ? json : JSON.stringify(json))
  }
  return { project, home, files }
}

async function oneTurn(setup: Setup, report: string, script: unknown[], args: string[] = []) {
  const server = await startFakeAnthropic({ script })
  try {
    const run = await builtModloop(['-p', 'go', ...args], {
      cwd: setup.project,
      env: { ...process.env, HOME: setup.home, CLAUDE_CONFIG_DIR: undefined, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', MODLOOP_HOME: join(setup.home, '.modloop'), NODE_OPTIONS: `--require ${countingPreload(report)}` },
    })
    expect(run.code, run.err).toBe(0)
    return { run, counts: JSON.parse(readFileSync(join(dir, `${report}.json`), 'utf8')) as Record<string, Accesses>, requests: server.requests }
  } finally {
    await server.close()
  }
}

describe('a session start reads each settings file once', () => {
  it('a one-turn run opens, stats and lists each settings file at most once, however many mods read it', async () => {
    const setup = setUp('plain', {
      '~/.claude/settings.json': { permissions: { allow: ['Read'] }, enabledPlugins: {} },
      '.claude/settings.json': { permissions: { deny: ['Bash(rm:*)'] }, env: { FROM_PROJECT: '1' }, outputStyle: 'default', includeGitInstructions: true },
      '.claude/settings.local.json': { permissions: { ask: ['Bash(git push:*)'] }, skillOverrides: {} },
      'ci/settings.json': { permissions: { deny: ['WebFetch'] } },
    })
    const { run, counts } = await oneTurn(setup, 'plain', [{ reply: 'Hello.' }], ['--settings', 'ci/settings.json'])
    expect(run.out).toContain('Hello.')
    const settingsFiles = [join(setup.home, '.claude', 'settings.json'), join(setup.project, '.claude', 'settings.json'), join(setup.project, '.claude', 'settings.local.json')]
    for (const file of settingsFiles) expect(counts[file], file).toEqual({ read: 1, stat: 1, list: 0 })
    // The --settings file: the command line checks it is a JSON object first (a usage error before any session), then the session reads it once.
    expect(counts[join(setup.project, 'ci', 'settings.json')]).toEqual({ read: 2, stat: 1, list: 0 })
    // Managed policy: its file looked for once, its drop-in folder listed once (neither exists here).
    for (const [path, c] of Object.entries(counts).filter(([p]) => p.includes('managed-settings'))) expect(c.read + c.stat + c.list, path).toBe(1)
    // What the files say still applies: the untrusted project's env is held back, naming its file, once.
    const notices = run.err.split('\n').filter((l) => l.includes('FROM_PROJECT'))
    expect(notices).toHaveLength(1)
    expect(notices[0]).toContain(join(setup.project, '.claude', 'settings.json'))
  })

  it('a bad settings file is named as before, once by each mod that reports it, and read once', async () => {
    const setup = setUp('bad', { '.claude/settings.local.json': '{ "permissions": ', '.claude/settings.json': { permissions: { allow: 'Read' } } })
    const { run, counts } = await oneTurn(setup, 'bad', [{ reply: 'Hello.' }])
    const local = join(setup.project, '.claude', 'settings.local.json')
    expect(counts[local]).toEqual({ read: 1, stat: 1, list: 0 })
    // The permissions mod and the settings hooks each say why the file does not apply.
    expect(run.err).toContain(`permissions: ${local}: not valid JSON`)
    expect(run.err).toContain(`settings hooks: ${local}: not valid JSON`)
    expect(run.err).toContain(`${join(setup.project, '.claude', 'settings.json')}: permissions.allow:`)
  })

  it('a SessionStart hook that writes a settings file: the mods that read after it see what it wrote', async () => {
    // The hook denies Bash in the local settings; the permissions mod reads them after the hooks ran.
    const write = `printf '%s' '{"permissions":{"deny":["Bash"]}}' > .claude/settings.local.json`
    const setup = setUp('hook-writes', {
      '.claude/settings.json': { hooks: { SessionStart: [{ hooks: [{ type: 'command', command: write }] }] } },
      '.claude/settings.local.json': { permissions: {} },
    })
    const script = [{ reply: [{ tool_use: { name: 'Bash', input: { command: 'printf ran' } } }] }, { reply: 'Done.' }]
    const { counts, requests } = await oneTurn(setup, 'hook-writes', script, ['--allowedTools', 'Bash'])
    const result = (requests[1]!.body.messages as { content: unknown }[]).at(-1)!.content as { type: string; content: unknown; is_error?: boolean }[]
    expect(result.find((b) => b.type === 'tool_result')).toMatchObject({ is_error: true })
    expect(JSON.stringify(result)).toMatch(/denied|Permission to use Bash/i)
    // Read before the hook (settings env, plugins) and once after it.
    expect(counts[join(setup.project, '.claude', 'settings.local.json')]!.read).toBe(2)
  })
})
