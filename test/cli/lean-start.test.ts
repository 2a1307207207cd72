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
  it('talks to the API over node:http without loading undici (fetch), web streams, TLS, node:crypto, promise hooks, stdin or any package file by file, with ASCII tool schemas', async () => {
    const report = join(dir, 'loaded.json')
    const preload = join(dir, 'report.cjs')
    // Node's own record of the built-in modules this process loaded, and whether async hooks were ever turned on.
    writeFileSync(preload, `const ah = require('node:async_hooks'); let hooked = false
const orig = ah.AsyncLocalStorage.prototype._enable; ah.AsyncLocalStorage.prototype._enable = function () { hooked = true; return orig.call(this) }
const stdin = Object.getOwnPropertyDescriptor(process, 'stdin'); let stdinBuilt = false
Object.defineProperty(process, 'stdin', { ...stdin, get() { stdinBuilt = true; return stdin.get.call(this) } })
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify({ modules: process.moduleLoadList, files: Object.keys(require.cache), hooked, stdinBuilt })))\n`)
    // A JavaScript project, as most are: its package.json has no modloop key, its settings have a
    // hook this turn never fires, and it has a command and a skill (YAML frontmatter, found by glob).
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', scripts: { test: 'vitest' } }))
    mkdirSync(join(dir, '.claude/commands'), { recursive: true })
    mkdirSync(join(dir, '.claude/skills/deploy'), { recursive: true })
    writeFileSync(join(dir, '.claude/settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] } }))
    writeFileSync(join(dir, '.claude/commands/t.md'), '---\ndescription: Run the tests\nallowed-tools: Bash(npm test:*)\n---\n\nRun npm test.\n')
    writeFileSync(join(dir, '.claude/skills/deploy/SKILL.md'), '---\nname: deploy\ndescription: Deploys to staging\n---\n\nRun npm run deploy.\n')
    const server = await startFakeAnthropic({ script: [{ reply: 'Hello.' }] })
    try {
      const run = await builtModloop(['-p', 'hi'], { cwd: dir, env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', MODLOOP_HOME: join(dir, 'home'), NODE_OPTIONS: `--require ${preload}` } })
      expect(run.out + run.err).toContain('Hello.')
      const loaded = JSON.parse(readFileSync(report, 'utf8')) as { modules: string[]; files: string[]; hooked: boolean; stdinBuilt: boolean }
      // Nothing is compiled from node_modules, file by file and without a code cache: finding no
      // config in a package.json takes no cosmiconfig (~30 ms), frontmatter takes the build's one-file
      // yaml (~25 ms from node_modules), and the glob's crawler the bundle's own picomatch.
      expect(loaded.files.filter((f) => f.includes('node_modules'))).toEqual([])
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
