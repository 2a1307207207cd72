import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../cli/main.js'
import type { Io } from '../../cli/io.js'
import { project, type Project } from '../loader/project.js'

// A project mod whose top-level code leaves a mark: the review commands must not run it.
const marking = (mark: string) => `import { writeFileSync } from 'node:fs'\nwriteFileSync(${JSON.stringify(mark)}, 'ran')\nexport function register(on) { on('tool.call', ($, e, next) => next(e)) }\n`

let p: Project
let ts: Project
let cjs: Project
const mark = () => p.path('ran.txt')
beforeAll(async () => {
  p = await project({ 'modloop.config.json': { mods: ['./sneaky.mjs'], hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 0' }] }] } } })
  await p.write({ 'sneaky.mjs': marking(mark()) })
  // A config's `extends` naming CommonJS: cosmiconfig's own loader for .cjs would run it ungated.
  cjs = await project({ '.modlooprc.json': { extends: './base.cjs' } })
  await cjs.write({ 'base.cjs': `require('node:fs').writeFileSync(${JSON.stringify(cjs.path('ran.txt'))}, 'ran')\nmodule.exports = { mods: [] }\n` })
  ts = await project()
  await ts.write({ 'modloop.config.ts': `import { writeFileSync } from 'node:fs'\nwriteFileSync(${JSON.stringify(ts.path('ran.txt'))}, 'ran')\nexport default { mods: [] }\n` })
})
afterAll(async () => {
  await p.remove()
  await ts.remove()
  await cjs.remove()
})

function capture(cwd: string, home: string): Io & { out: () => string; err: () => string } {
  let out = ''
  let err = ''
  return {
    stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) },
    cwd, env: { HOME: home, MODLOOP_HOME: join(home, '.modloop') },
    out: () => out, err: () => err,
  }
}

describe('the review commands run no project code in a folder not trusted', () => {
  it.each([
    [['mods', 'list']],
    [['mods', 'stack', 'tool.call']],
    [['hooks', 'list']],
    [['hooks', 'test', 'PreToolUse', '{"tool_name":"Bash","tool_input":{"command":"ls"}}']],
    [['permissions', 'check', 'Bash', '{"command":"ls"}']],
  ])('%j lists what the project would load and imports none of it', async (args) => {
    const io = capture(p.dir, p.path('home'))
    await main(args, io)
    expect(existsSync(mark()), `${args.join(' ')} ran the project's mod`).toBe(false)
    if (args[0] === 'mods' && args[1] === 'list') expect(io.out()).toContain(`not imported (this folder is not trusted; \`modloop trust\` or --trust-workspace loads it): sneaky.mjs`)
    if (args[0] === 'hooks' && args[1] === 'list') expect(io.out()).toContain('exit 0')
  })

  it('with --trust-workspace the project code is imported', async () => {
    const io = capture(p.dir, p.path('home'))
    expect(await main(['mods', 'list', '--trust-workspace'], io)).toBe(0)
    expect(existsSync(mark())).toBe(true)
    expect(io.out()).toContain('sneaky')
    await rm(mark())
  })

  it('a trusted folder imports it without the flag', async () => {
    const home = p.path('home-trusted')
    expect(await main(['trust'], capture(p.dir, home))).toBe(0)
    const io = capture(p.dir, home)
    // The module was imported by the test before (modules are cached), so it shows as loaded rather than marking again.
    expect(await main(['mods', 'list', '--json'], io)).toBe(0)
    expect(JSON.parse(io.out()).mods.find((m: { name: string }) => m.name === 'sneaky')).toMatchObject({ status: 'loaded' })
  })

  it('a config that is code is not run: the error names the file and says how to trust it', async () => {
    const io = capture(ts.dir, ts.path('home'))
    expect(await main(['mods', 'list'], io)).toBe(1)
    expect(existsSync(ts.path('ran.txt'))).toBe(false)
    expect(io.err()).toContain(`${ts.path('modloop.config.ts')}: the config was not imported: this folder is not trusted`)
  })

  it('nor does listing sessions run a config that is code, to learn its session store', async () => {
    const io = capture(ts.dir, ts.path('home'))
    expect(await main(['sessions', 'list'], io)).toBe(1)
    expect(existsSync(ts.path('ran.txt'))).toBe(false)
    expect(io.err()).toContain(`${ts.path('modloop.config.ts')}: the config was not imported: this folder is not trusted`)
    const trusting = capture(ts.dir, ts.path('home'))
    expect(await main(['sessions', 'list', '--trust-workspace'], trusting)).toBe(0)
    expect(trusting.out()).toContain('no sessions in')
    expect(existsSync(ts.path('ran.txt'))).toBe(true)
    await rm(ts.path('ran.txt'))
  })

  it('nor is a CommonJS config another extends', async () => {
    const io = capture(cjs.dir, cjs.path('home'))
    expect(await main(['mods', 'list'], io)).toBe(1)
    expect(existsSync(cjs.path('ran.txt'))).toBe(false)
    expect(io.err()).toContain(`${cjs.path('base.cjs')}: the config was not imported: this folder is not trusted`)
  })
})
