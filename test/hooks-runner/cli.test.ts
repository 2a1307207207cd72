import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { tempDir } from './helpers.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const cli = join(root, 'dist', 'hooks-runner', 'cli.js')

let project: string
let home: string

/** Runs the built CLI as a package user would, in the temp project, with a temp home. */
function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: project, env: { PATH: process.env.PATH, HOME: home } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: stdout, err: stderr })
    })
  })
}

beforeAll(async () => {
  const dir = await tempDir()
  project = join(dir, 'project')
  home = join(dir, 'home')
  await mkdir(join(project, '.claude'), { recursive: true })
  await mkdir(join(home, '.claude'), { recursive: true })
  await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify({
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const i=JSON.parse(s);if(/rm -rf/.test(i.tool_input.command)){console.error('no rm -rf');process.exit(2)}})"` }] }] },
  }))
  await writeFile(join(home, '.claude', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo done' }] }] } }))
})

describe('modloop-hooks, the standalone hooks-runner CLI', () => {
  it('is the package bin modloop-hooks, built from a file that imports only hooks-runner and Node', async () => {
    expect(existsSync(cli), 'run `npm run build` first').toBe(true)
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'))
    expect(pkg.bin['modloop-hooks']).toBe('dist/hooks-runner/cli.js')
    const source = await readFile(join(root, 'hooks-runner', 'cli.ts'), 'utf8')
    expect(source.startsWith('#!/usr/bin/env node\n')).toBe(true)
    const specifiers = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]!)
    expect(specifiers.filter((s) => !s.startsWith('node:') && !/^\.\/[\w-]+\.js$/.test(s))).toEqual([])
  })

  it('list prints the hooks in settings order with their files', async () => {
    const r = await run(['list', '--json'])
    expect(r.code, r.err).toBe(0)
    expect(JSON.parse(r.out).hooks).toEqual([
      expect.objectContaining({ event: 'Stop', command: 'echo done', source: 'User Settings', file: join(home, '.claude', 'settings.json') }),
      expect.objectContaining({ event: 'PreToolUse', matcher: 'Bash', type: 'command', source: 'Project Settings', file: join(project, '.claude', 'settings.json') }),
    ])
    const text = await run(['list'])
    expect(text.out).toContain(`Stop  *  command  echo done  (User Settings: ${join(home, '.claude', 'settings.json')})`)
  })

  it('test runs the matching hooks on a synthetic input: exit 2 and the reason when they block', async () => {
    const blocked = await run(['test', 'PreToolUse', '--input', '{"tool_input":{"command":"rm -rf /"}}', '--json'])
    expect(blocked.code).toBe(2)
    const out = JSON.parse(blocked.out)
    expect(out.hooks).toEqual([expect.objectContaining({ outcome: 'blocking', exitCode: 2, file: join(project, '.claude', 'settings.json') })])
    expect(out.merged).toMatchObject({ blocked: true, decision: 'deny', blockReason: expect.stringMatching(/\]: no rm -rf\n$/) })
    const passed = await run(['test', 'PreToolUse', '--input', '{"tool_input":{"command":"ls"}}'])
    expect(passed.code).toBe(0)
    expect(passed.out).toContain('outcome success, exit 0')
    expect((await run(['test', 'PreToolUse', '--tool', 'Edit'])).out).toBe('no hook matches PreToolUse:Edit\n')
  })

  it('a bad command or event is a usage error', async () => {
    const r = await run(['test', 'PreToolUze'])
    expect(r.code).toBe(64)
    expect(r.err).toContain('test needs an event, one of: ')
    expect((await run(['frobnicate'])).code).toBe(64)
  })
})
