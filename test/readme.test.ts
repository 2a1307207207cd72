import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Io } from '../cli/io.js'
import { main } from '../cli/main.js'

// The README's "write your first mod" must work verbatim: its files are taken from the README itself.
const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8')
const blocks = [...readme.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, code: m[2]! }))
const guard = blocks.find((b) => b.lang === 'ts' && b.code.includes("name: 'guard'"))!.code
const config = blocks.find((b) => b.lang === 'json' && b.code.includes('"extends"'))!.code
const steps = blocks.find((b) => b.lang === 'json' && b.code.trimStart().startsWith('['))!.code

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-readme-')))
  await writeFile(join(dir, 'guard.ts'), guard)
  await writeFile(join(dir, 'modloop.config.json'), config)
  await writeFile(join(dir, 'steps.json'), steps)
})
afterAll(() => rm(dir, { recursive: true, force: true }))

async function run(args: string[]) {
  let out = ''
  let err = ''
  const io: Io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, cwd: dir, env: { MODLOOP_HOME: join(dir, '.modloop-home') } }
  const code = await main(args, io)
  return { code, out, err }
}

describe('README: write your first mod', () => {
  it('mods list shows the guard loaded from guard.ts, once the folder is trusted', async () => {
    expect((await run(['trust'])).code).toBe(0)
    const r = await run(['mods', 'list'])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/guard\s+loaded\s+guard\.ts/)
  })

  it('mods stack tool.call shows the guard with its matcher', async () => {
    const r = await run(['mods', 'stack', 'tool.call'])
    expect(r.out).toContain('guard')
    expect(r.out).toContain('tool="Bash"')
  })

  it('-p with the scripted steps: the guard refuses rm -rf', async () => {
    const r = await run(['-p', 'clean up the build directory', '--script', 'steps.json', '--output-format', 'stream-json'])
    expect(r.code).toBe(0)
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l))
    const user = lines.find((l) => l.type === 'user')
    expect(user.message.content[0]).toMatchObject({ is_error: true, content: 'guard: "rm -rf" is not allowed' })
    expect(lines.at(-1)).toMatchObject({ type: 'result', subtype: 'success', permission_denials: [{ tool_name: 'Bash' }] })
  })
})

describe('README: embedding, from a directory outside the checkout', () => {
  it('runs once modloop is linked there (what `npm link modloop` makes: node_modules/modloop → the checkout)', async () => {
    const checkout = fileURLToPath(new URL('..', import.meta.url))
    expect(existsSync(join(checkout, 'dist', 'index.js')), 'run `npm run build` first').toBe(true)
    const example = blocks.find((b) => b.lang === 'ts' && b.code.includes("import { query } from 'modloop'"))!.code
    const outside = await realpath(await mkdtemp(join(tmpdir(), 'modloop-embed-')))
    try {
      const project = join(outside, 'project')
      await mkdir(join(outside, 'node_modules'), { recursive: true })
      await mkdir(project)
      await writeFile(join(outside, 'steps.json'), JSON.stringify([{ reply: 'the test passes now' }]))
      // The README's code as written, pointed at a real project directory.
      await writeFile(join(outside, 'embed.mjs'), example.replace("'/my/project'", JSON.stringify(project)))
      const run = (env: Record<string, string>) => new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        execFile(process.execPath, ['embed.mjs'], { cwd: outside, env: { PATH: process.env.PATH, HOME: join(outside, 'home'), MODLOOP_HOME: join(outside, 'modloop-home'), ...env } }, (error, out, err) => {
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out, err })
        })
      })
      const env = { MODLOOP_SCRIPT: join(outside, 'steps.json') }
      const unlinked = await run(env)
      expect(unlinked.err).toContain("Cannot find package 'modloop'")
      await symlink(checkout, join(outside, 'node_modules', 'modloop'), 'dir')
      const linked = await run(env)
      expect(linked.err).toBe('')
      expect(linked.out).toContain('success the test passes now')
    } finally {
      await rm(outside, { recursive: true, force: true })
    }
  })
})
