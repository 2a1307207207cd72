import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Script } from 'node:vm'
import { afterAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'modloop-bundle-vendored-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// The CLI bundle keeps some of what only some runs use in files of its own, loaded on first use
// (scripts/bundle.mjs): what a mod reaches through the bundle must still be whole.
describe('the CLI bundle, in this process', () => {
  it("gives mods zod's locales, each loaded on its first call", async () => {
    // Loaded as bin/code-cache.cjs loads it, without its cache: a cache made under this process's
    // V8 flags would be rejected by the CLI's next start.
    const file = join(root, 'dist', 'bin', 'main.cjs')
    const bundle = { exports: {} as { main(argv: string[], io: unknown): Promise<number> } }
    new Script(readFileSync(file, 'latin1'), { filename: file }).runInThisContext()(bundle.exports, createRequire(file), bundle, file, dirname(file))
    const { main } = bundle.exports
    const mod = join(dir, 'locale-mod.mjs')
    writeFileSync(mod, `import { z } from 'zod'
export default { name: 'locale-mod', register() {
  const fr = z.locales.fr()
  globalThis.__modloopLocaleCheck = { names: Object.keys(z.locales).length, fr: typeof fr.localeError }
} }\n`)
    let out = ''
    let err = ''
    const io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, cwd: dir, env: { ...process.env, MODLOOP_HOME: join(dir, 'home') } }
    expect(await main(['mods', 'list', '--mod', mod], io), err).toBe(0)
    expect(out).toContain('locale-mod')
    const check = (globalThis as unknown as { __modloopLocaleCheck?: { names: number; fr: string } }).__modloopLocaleCheck
    expect(check).toEqual({ names: expect.any(Number), fr: 'function' })
    expect(check!.names).toBeGreaterThan(30)
  })

  it("holds the SDK's messages resource, not the other resources the package's client builds", () => {
    // runtime/model/sdk-client.ts: the package's `Anthropic` brought ~58 resource classes (beta,
    // models, files, organization, …) and a quarter of the bundle into every cold start.
    const text = readFileSync(join(root, 'dist', 'bin', 'main.cjs'), 'latin1')
    const resources = text.match(/extends APIResource\b/g) ?? []
    expect(resources.length).toBeGreaterThan(0)
    expect(resources.length, 'resource classes in the bundle: messages and its batches').toBeLessThanOrEqual(4)
  })
})
