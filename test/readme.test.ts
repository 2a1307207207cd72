import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
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
    expect(r.out).toMatch(/guard\s+guard\.ts/)
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
