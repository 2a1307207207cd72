import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { builtModloop } from '../helpers/built-cli.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'

const dir = mkdtempSync(join(tmpdir(), 'modloop-ts-config-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// In a process of its own: a test in-process would find the host module set by an earlier load.
describe('a project whose config is TypeScript, in a fresh CLI process', () => {
  it('runs -p with the config and its TypeScript mod, which imports modloop', async () => {
    writeFileSync(join(dir, 'modloop.config.ts'), `const config: { extends: string; mods: string[] } = { extends: 'modloop', mods: ['./stamp.ts'] }\nexport default config\n`)
    writeFileSync(join(dir, 'stamp.ts'), `import { defineMod } from 'modloop'
export default defineMod({
  name: 'stamp',
  register(on) {
    on('prompt.section', { name: 'intro' }, async (_$, e, next) => {
      const r = await next(e)
      return r.text === null ? r : { text: \`\${r.text}\\n\\nStamped by a TypeScript mod.\` }
    })
  },
})
`)
    const server = await startFakeAnthropic({ script: [{ reply: 'Hello.' }] })
    try {
      const run = await builtModloop(['-p', 'hi'], { cwd: dir, env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', MODLOOP_HOME: join(dir, 'home'), HOME: dir } })
      expect(run.err).toBe('')
      expect(run.out).toContain('Hello.')
      expect(JSON.stringify(server.requests[0]!.body.system)).toContain('Stamped by a TypeScript mod.')
    } finally {
      await server.close()
    }
  })
})
