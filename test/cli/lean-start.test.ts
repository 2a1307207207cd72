import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { builtCli, builtModloop, runNoInput } from '../helpers/built-cli.js'
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js'
import { startLoggingProxy } from '../helpers/logging-proxy.js'

const dir = mkdtempSync(join(tmpdir(), 'modloop-lean-start-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Loaded {
  modules: string[]
  files: string[]
  hooked: boolean
  stdinBuilt: boolean
  vendored: string[]
}

/** A one-turn `-p` run in `project` (a directory of `dir`), with Node's own record of what it loaded. */
async function oneTurn(project: string, files: Record<string, string>, env: Record<string, string> = {}): Promise<{ loaded: Loaded; server: FakeAnthropic }> {
  const cwd = join(dir, project)
  mkdirSync(cwd, { recursive: true })
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(cwd, name, '..'), { recursive: true })
    writeFileSync(join(cwd, name), text)
  }
  const report = join(dir, `${project}.json`)
  const preload = join(dir, `${project}.cjs`)
  // The built-in modules this process loaded, the files it required, the build's lazily loaded
  // files it opened (dist/vendor), and whether async hooks were ever turned on.
  writeFileSync(preload, `const fs = require('node:fs'); const openSync = fs.openSync; const vendored = []
fs.openSync = function (file, ...rest) { if (/[\\\\/]dist[\\\\/]vendor[\\\\/]/.test(String(file))) vendored.push(require('node:path').basename(String(file))); return openSync.call(this, file, ...rest) }
const ah = require('node:async_hooks'); let hooked = false
const orig = ah.AsyncLocalStorage.prototype._enable; ah.AsyncLocalStorage.prototype._enable = function () { hooked = true; return orig.call(this) }
const stdin = Object.getOwnPropertyDescriptor(process, 'stdin'); let stdinBuilt = false
Object.defineProperty(process, 'stdin', { ...stdin, get() { stdinBuilt = true; return stdin.get.call(this) } })
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify({ modules: process.moduleLoadList, files: Object.keys(require.cache), hooked, stdinBuilt, vendored })))\n`)
  const server = await startFakeAnthropic({ script: [{ reply: 'Hello.' }] })
  try {
    const run = await builtModloop(['-p', 'hi'], { cwd, env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', MODLOOP_HOME: join(dir, 'home'), NODE_OPTIONS: `--require ${preload}`, ...env } })
    expect(run.out + run.err).toContain('Hello.')
  } finally {
    await server.close()
  }
  return { loaded: JSON.parse(readFileSync(report, 'utf8')) as Loaded, server }
}

/**
 * Nothing is compiled from node_modules, file by file and without a code cache: config discovery
 * takes the build's one-file cosmiconfig, and none for a package.json without a modloop key
 * (~30 ms from node_modules); frontmatter the build's one-file yaml (~25 ms); the glob's crawler the
 * bundle's own picomatch. Ids come from core/random.ts's pool, a project hook is hashed for its
 * review only when it runs, and cosmiconfig's node:crypto waits for its TypeScript loader, which
 * modloop never uses: a run that hashes nothing never loads node:crypto (~7 ms).
 */
function expectNothingFileByFile(loaded: Loaded): void {
  expect(loaded.files.filter((f) => f.includes('node_modules'))).toEqual([])
  expect(loaded.modules.filter((m) => /NativeModule (internal\/)?crypto/.test(m))).toEqual([])
}

// What a cold run loads is its start-up time: these stay out of a one-turn run against a local server.
describe('a cold one-turn run of the CLI', () => {
  it('talks to the API over node:http without loading undici (fetch), web streams, TLS, node:crypto, promise hooks, stdin, readline or any package file by file, with ASCII tool schemas', async () => {
    // A JavaScript project, as most are: its package.json has no modloop key, its settings have a
    // hook this turn never fires, and it has a command and a skill (YAML frontmatter, found by glob).
    const { loaded, server } = await oneTurn('app', {
      'package.json': JSON.stringify({ name: 'app', version: '1.0.0', scripts: { test: 'vitest' } }),
      '.claude/settings.json': JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] } }),
      '.claude/commands/t.md': '---\ndescription: Run the tests\nallowed-tools: Bash(npm test:*)\n---\n\nRun npm test.\n',
      '.claude/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploys to staging\n---\n\nRun npm run deploy.\n',
    })
    expectNothingFileByFile(loaded)
    expect(loaded.modules.filter((m) => /undici|webstreams\/readablestream|NativeModule (tls|https|http2)$/.test(m))).toEqual([])
    expect(loaded.modules).toContain('NativeModule http')
    // The terminal's line editor is for a session drawn in a terminal, not a headless run.
    expect(loaded.modules.filter((m) => /NativeModule (readline|readline\/promises|internal\/readline\/emitKeypressEvents)$/.test(m))).toEqual([])
    expect(loaded.hooked).toBe(false)
    // The proxy agents wait for a proxy variable.
    expect(loaded.vendored).not.toContain('proxy.cjs')
    // A prompt on the command line never needs standard input, whose stream costs ~5 ms to build.
    expect(loaded.stdinBuilt).toBe(false)
    // What the default distribution sends of its own (the tools, the system prompt, the first
    // message's context) is ASCII: one character past it (an en dash in a schema, an em dash in a
    // prompt section) made every request body a two-byte string in V8, twice the memory to build
    // and slower to encode: a long conversation's rounds took ~7M more instructions each.
    expect(JSON.stringify(server.requests[0]!.body).match(/[^\x00-\x7f]/g) ?? []).toEqual([])
  })

  it('a project with a config of its own, extending the default distribution, loads as little', async () => {
    const { loaded } = await oneTurn('configured', { '.modlooprc.json': JSON.stringify({ extends: 'modloop', compaction: { thresholdTokens: 30000 } }) })
    expectNothingFileByFile(loaded)
  })

  it('a run behind a proxy loads the proxy agents, from the build, and a run that NO_PROXY exempts does not', async () => {
    const proxy = await startLoggingProxy()
    try {
      const { loaded } = await oneTurn('proxied', {}, { HTTP_PROXY: proxy.url })
      expect(proxy.hits.map((h) => h.method)).toEqual(['POST'])
      expect(loaded.vendored).toContain('proxy.cjs')
      expect(loaded.files.filter((f) => f.includes('node_modules'))).toEqual([])
      const exempt = await oneTurn('exempt', {}, { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' })
      expect(proxy.hits).toHaveLength(1)
      expect(exempt.loaded.vendored).not.toContain('proxy.cjs')
    } finally {
      await proxy.close()
    }
  })
})

describe("Node's own modules in a cold run", () => {
  it('come from Node\'s code cache, not compiled from source: the launcher loads them before it sets V8 flags', async () => {
    // Node checks its built-in modules' cache against a hash of V8's flags, which the launch flags change.
    const report = join(dir, 'builtins.json')
    const preload = join(dir, 'builtins.cjs')
    writeFileSync(preload, `const { internalBinding } = require('internal/test/binding')
process.on('exit', () => { const u = internalBinding('builtins').getCacheUsage(); require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify({ cached: [...u.compiledWithCache], compiled: [...u.compiledWithoutCache] })) })\n`)
    const cwd = join(dir, 'builtins')
    mkdirSync(cwd, { recursive: true })
    const server = await startFakeAnthropic({ script: [{ reply: 'Hello.' }] })
    try {
      const bin = builtCli()
      // --no-warnings: the internals' warning would load a module of its own to print.
      const run = await runNoInput(process.execPath, ['--expose-internals', '--no-warnings', '--require', preload, bin, '-p', 'hi'], { cwd, env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', MODLOOP_HOME: join(dir, 'home') } })
      expect(run.out).toContain('Hello.')
    } finally {
      await server.close()
    }
    const usage = JSON.parse(readFileSync(report, 'utf8')) as { cached: string[]; compiled: string[] }
    expect(usage.cached).toEqual(expect.arrayContaining(['http', 'net', 'child_process', 'fs/promises']))
    expect(usage.compiled).toEqual([])
  })
})
