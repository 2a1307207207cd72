import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { builtModloop } from '../helpers/built-cli.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'

const dir = mkdtempSync(join(tmpdir(), 'modloop-lean-start-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// What a cold run loads is its start-up time: these stay out of a one-turn run against a local server.
describe('a cold one-turn run of the CLI', () => {
  it('talks to the API over node:http without loading undici (fetch), web streams, TLS, node:crypto, cosmiconfig, promise hooks or stdin, with ASCII tool schemas', async () => {
    const report = join(dir, 'loaded.json')
    const preload = join(dir, 'report.cjs')
    // Node's own record of the built-in modules this process loaded, and whether async hooks were ever turned on.
    writeFileSync(preload, `const ah = require('node:async_hooks'); let hooked = false
const orig = ah.AsyncLocalStorage.prototype._enable; ah.AsyncLocalStorage.prototype._enable = function () { hooked = true; return orig.call(this) }
const stdin = Object.getOwnPropertyDescriptor(process, 'stdin'); let stdinBuilt = false
Object.defineProperty(process, 'stdin', { ...stdin, get() { stdinBuilt = true; return stdin.get.call(this) } })
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify({ modules: process.moduleLoadList, files: Object.keys(require.cache), hooked, stdinBuilt })))\n`)
    // A JavaScript project, as most are: its package.json has no modloop key, and its settings have
    // a hook this turn never fires.
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', scripts: { test: 'vitest' } }))
    mkdirSync(join(dir, '.claude'))
    writeFileSync(join(dir, '.claude/settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] } }))
    const server = await startFakeAnthropic({ script: [{ reply: 'Hello.' }] })
    try {
      const run = await builtModloop(['-p', 'hi'], { cwd: dir, env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', MODLOOP_HOME: join(dir, 'home'), NODE_OPTIONS: `--require ${preload}` } })
      expect(run.out + run.err).toContain('Hello.')
      const loaded = JSON.parse(readFileSync(report, 'utf8')) as { modules: string[]; files: string[]; hooked: boolean; stdinBuilt: boolean }
      // Finding no config in a package.json takes no cosmiconfig (~30 ms to import).
      expect(loaded.files.filter((f) => f.includes('cosmiconfig'))).toEqual([])
      expect(loaded.modules.filter((m) => /undici|webstreams\/readablestream|NativeModule (tls|https|http2)$/.test(m))).toEqual([])
      expect(loaded.modules).toContain('NativeModule http')
      // Ids come from core/random.ts's pool, and a project hook is hashed for its review only when it
      // runs: a run that hashes nothing never loads node:crypto (~7 ms).
      expect(loaded.modules.filter((m) => /NativeModule (internal\/)?crypto/.test(m))).toEqual([])
      expect(loaded.hooked).toBe(false)
      // A prompt on the command line never needs standard input, whose stream costs ~5 ms to build.
      expect(loaded.stdinBuilt).toBe(false)
      // The tools the default distribution describes are ASCII: one character past it (an en dash in
      // a schema) made every request body a two-byte string in V8, twice the memory to build and encode.
      expect(JSON.stringify(server.requests[0]!.body.tools).match(/[^\x00-\x7f]/g) ?? []).toEqual([])
    } finally {
      await server.close()
    }
  })
})
