import { execFile } from 'node:child_process'
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { Module } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { execNoInput } from '../helpers/built-cli.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const codeCache = join(root, 'bin', 'code-cache.cjs')
const run = promisify(execFile)
const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

/** A temp dir holding one module in the pre-wrapped form the loader takes. */
function project(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'modloop-code-cache-'))
  dirs.push(dir)
  const file = join(dir, 'mod.cjs')
  const body = Array.from({ length: 200 }, (_, i) => `exports.f${i} = (x) => x * ${i} + ${i}`).join('\n')
  const [head, tail] = (Module as unknown as { wrapper: [string, string] }).wrapper
  writeFileSync(file, `${head}${body}${tail}`)
  return { dir, file }
}

/** The cache beside `file`, identified by inode: a rewrite is a new file renamed into place. */
function cacheOf(dir: string): { name: string; ino: number } | undefined {
  const name = readdirSync(dir).find((n) => n.endsWith('.cache'))
  return name ? { name, ino: statSync(join(dir, name)).ino } : undefined
}

/** A fresh process that loads `file` through the cache, then changes a V8 flag the given way, then loads `lateFile`. */
async function start(file: string, setFlag: 'setV8Flags' | 'setFlagsFromString', lateFile?: string): Promise<void> {
  const flag = '--heap-growing-percent=30'
  const change = setFlag === 'setV8Flags' ? `cache.setV8Flags([${JSON.stringify(flag)}], ['--heap-growing-percent=0'])` : `require('node:v8').setFlagsFromString(${JSON.stringify(flag)})`
  const late = lateFile ? `cache.requireCached(${JSON.stringify(lateFile)})` : ''
  const script = `const cache = require(${JSON.stringify(codeCache)}); cache.requireCached(${JSON.stringify(file)}); ${change}; ${late}`
  await run(process.execPath, ['-e', script])
}

describe('the code cache', () => {
  it('written by one start is taken by the next, though the run changed a V8 flag through setV8Flags', async () => {
    const { dir, file } = project()
    await start(file, 'setV8Flags')
    const first = cacheOf(dir)
    expect(first).toBeDefined()
    await start(file, 'setV8Flags')
    await start(file, 'setV8Flags')
    expect(cacheOf(dir)).toEqual(first)
  })

  it('of a script loaded after the flag changed is made under the changed flags, which it meets next time too', async () => {
    const early = project()
    const late = project()
    await start(early.file, 'setV8Flags', late.file)
    const first = [cacheOf(early.dir), cacheOf(late.dir)]
    expect(first.every(Boolean)).toBe(true)
    await start(early.file, 'setV8Flags', late.file)
    expect([cacheOf(early.dir), cacheOf(late.dir)]).toEqual(first)
  })

  it('is rejected by the next start when a flag changed behind its back (why setV8Flags exists)', async () => {
    const { dir, file } = project()
    await start(file, 'setFlagsFromString')
    const first = cacheOf(dir)
    await start(file, 'setFlagsFromString')
    // Same name (same file, same V8), but rejected and so written anew.
    expect(cacheOf(dir)?.name).toBe(first?.name)
    expect(cacheOf(dir)?.ino).not.toBe(first?.ino)
  })

  it('is taken when larger than its source, and a corrupt one only costs a compile and is written anew', async () => {
    const { dir, file } = project()
    await start(file, 'setV8Flags')
    const first = cacheOf(dir)!
    // Larger than the room read for the source (bin/code-cache.cjs reads a cache that fits into it).
    expect(statSync(join(dir, first.name)).size).toBeGreaterThan(statSync(file).size * 1.25)
    await start(file, 'setV8Flags')
    expect(cacheOf(dir)).toEqual(first)
    writeFileSync(join(dir, first.name), Buffer.alloc(statSync(join(dir, first.name)).size, 7))
    const { stdout } = await run(process.execPath, ['-e', `console.log(require(${JSON.stringify(codeCache)}).requireCached(${JSON.stringify(file)}).f3(2))`])
    expect(stdout.trim()).toBe('9')
    expect(cacheOf(dir)?.ino).not.toBe(first.ino)
  })

  it('of the CLI bundle survives headless runs, which tune the heap mid-session', async () => {
    // A copy of the install whose bundle has no cache yet, away from the CLI runs of other tests.
    const install = mkdtempSync(join(tmpdir(), 'modloop-code-cache-cli-'))
    dirs.push(install)
    for (const name of ['package.json', 'node_modules']) symlinkSync(join(root, name), join(install, name))
    cpSync(join(root, 'bin'), join(install, 'bin'), { recursive: true })
    mkdirSync(join(install, 'dist', 'bin'), { recursive: true })
    for (const name of readdirSync(join(root, 'dist')).filter((n) => n !== 'bin')) symlinkSync(join(root, 'dist', name), join(install, 'dist', name))
    copyFileSync(join(root, 'dist', 'bin', 'main.cjs'), join(install, 'dist', 'bin', 'main.cjs'))
    writeFileSync(join(install, 'script.json'), JSON.stringify([{ reply: 'Done.' }]))
    const cli = () => execNoInput(process.execPath, [join(install, 'bin', 'modloop.cjs'), '-p', 'hi', '--script', 'script.json'], { cwd: install, env: { ...process.env, MODLOOP_HOME: install } })
    expect((await cli()).stdout).toContain('Done.')
    const first = cacheOf(join(install, 'dist', 'bin'))
    expect(first).toBeDefined()
    await cli()
    expect(cacheOf(join(install, 'dist', 'bin'))).toEqual(first)
  })
})
