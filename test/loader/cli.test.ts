import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../cli/main.js'
import type { Io } from '../../cli/io.js'
import { bareMod, project, typedMod, type Project } from './project.js'
import { builtCli } from '../helpers/built-cli.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
// Read, not imported: an imported package.json would be copied into dist by the type-check's emit.
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }

function capture(cwd: string): Io & { out: () => string; err: () => string } {
  let out = ''
  let err = ''
  return {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
    cwd,
    env: {},
    out: () => out,
    err: () => err,
  }
}

let p: Project
beforeAll(async () => {
  p = await project({
    'modloop.config.json': {
      mods: [['./guard.ts', { level: 2 }], './watch.mjs', './outer.mjs'],
      hooks: { Stop: [] },
    },
    'guard.ts': typedMod('guard'),
    'watch.mjs': `export function register(on) {
  on('tool.call', { tool: 'Bash' }, ($, e, next) => next(e), { stage: 100 })
  on('tool.check', ($, e, next) => next(e), { failClosed: true }).catch(() => undefined)
}
`,
    'outer.mjs': `export function register(on) { on('tool.call', ($, e, next) => next(e), { stage: -100, before: 'guard' }) }\n`,
    'broken/modloop.config.json': { mods: ['./missing.mjs', './ok.mjs'] },
    'broken/ok.mjs': bareMod(),
    'bad-options/modloop.config.json': { mods: [['./typed.ts', { level: 'high' }]] },
    'bad-options/typed.ts': typedMod('typed'),
  })
})
afterAll(() => p.remove())

describe('modloop CLI, in-process', () => {
  it('--version prints the package version', async () => {
    const io = capture(p.dir)
    expect(await main(['--version'], io)).toBe(0)
    expect(io.out()).toBe(`${pkg.version}\n`)
  })

  it('mods list --json: mods with source, version, options and status, and the hooks found', async () => {
    const io = capture(p.dir)
    expect(await main(['mods', 'list', '--json', '--trust-workspace'], io)).toBe(0)
    const out = JSON.parse(io.out())
    expect(out.configFile).toBe(p.path('modloop.config.json'))
    expect(out.mods).toEqual([
      { name: 'guard', source: p.path('guard.ts'), version: '1.0.0', options: { level: 2 }, status: 'loaded' },
      { name: 'watch', source: p.path('watch.mjs'), options: {}, status: 'loaded' },
      { name: 'outer', source: p.path('outer.mjs'), options: {}, status: 'loaded' },
    ])
    expect(out.hooks).toEqual([{ source: p.path('modloop.config.json'), events: ['Stop'] }])
    expect(out.errors).toEqual([])
  })

  it('mods list as a table, with --mod added from cwd', async () => {
    // wide enough for any temporary directory's paths: fitting the table is the next test's
    const io = { ...capture(p.path('broken')), env: { COLUMNS: '300' } }
    expect(await main(['mods', 'list', '--mod', '../watch.mjs', '--trust-workspace'], io)).toBe(1)
    expect(io.out()).toMatch(/NAME\s+STATUS\s+VERSION\s+SOURCE\s+OPTIONS/)
    expect(io.out()).toMatch(/ok\s+loaded\s+ok\.mjs\s+-/)
    expect(io.out()).toMatch(/watch\s+loaded\s+\S*watch\.mjs/)
    expect(io.out()).toMatch(/MODLOOP_ERR_MOD_RESOLVE \[resolve\] modloop\.config\.json/)
  })

  it('mods list fits the terminal width: options by name only; mods show NAME gives one mod in full', async () => {
    const io = { ...capture(p.dir), env: { COLUMNS: '60' } }
    expect(await main(['mods', 'list', '--trust-workspace'], io)).toBe(0)
    const lines = io.out().trimEnd().split('\n')
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(60)
    expect(io.out()).toMatch(/guard\s+loaded\s+1\.0\.0\s+guard\.ts\s+level/)
    expect(io.out()).not.toContain('"level"')
    // The default distribution's wide options, at a usual width.
    const wide = { ...capture(p.dir), env: { COLUMNS: '100' } }
    await main(['mods', 'list', '--mod', 'read', '--mod', 'bash'], wide)
    expect(Math.max(...wide.out().trimEnd().split('\n').map((l) => l.length))).toBeLessThanOrEqual(100)
    const show = capture(p.dir)
    expect(await main(['mods', 'show', 'guard', '--trust-workspace'], show)).toBe(0)
    expect(show.out()).toContain('status: loaded')
    expect(show.out()).toContain('"level": 2')
    const missing = capture(p.dir)
    expect(await main(['mods', 'show', 'nope'], missing)).toBe(1)
    expect(missing.err()).toContain('no mod "nope"')
  })

  it('mods show NAME of a mod whose options failed shows it failed, with why, not "no mod"', async () => {
    const io = capture(p.path('bad-options'))
    expect(await main(['mods', 'show', 'typed', '--trust-workspace'], io)).toBe(1)
    expect(io.out()).toContain('status: failed')
    expect(io.out()).toContain('source: typed.ts')
    expect(io.out()).toMatch(/error: MODLOOP_ERR_MOD_OPTIONS: typed: option "level"/)
    expect(io.err()).toBe('')
  })

  it('mods list --strict-mods fails on the first load error', async () => {
    const io = capture(p.path('broken'))
    expect(await main(['mods', 'list', '--strict-mods'], io)).toBe(1)
    expect(io.err()).toContain('MODLOOP_ERR_MOD_RESOLVE')
  })

  it('mods stack tool.call prints the resolved order', async () => {
    const io = capture(p.dir)
    expect(await main(['mods', 'stack', 'tool.call', '--json', '--trust-workspace'], io)).toBe(0)
    const { event, stack } = JSON.parse(io.out())
    expect(event).toBe('tool.call')
    expect(stack.map((h: { position: number; mod: string; stage: number }) => [h.position, h.mod, h.stage])).toEqual([[1, 'outer', -100], [2, 'guard', 0], [3, 'watch', 100]])
    expect(stack[2].matcher).toBe('tool="Bash"')

    const text = capture(p.dir)
    expect(await main(['mods', 'stack', 'tool.check', '--trust-workspace'], text)).toBe(0)
    expect(text.out()).toMatch(/1\s+watch\s+0\s+failClosed catch/)
  })

  it('mods stack with an unknown event exits 1 listing the events', async () => {
    const io = capture(p.dir)
    expect(await main(['mods', 'stack', 'tool.nope'], io)).toBe(1)
    expect(io.err()).toContain('unknown event "tool.nope"')
    expect(io.err()).toContain('tool.call')
  })

  it.each([
    [[], /^modloop: the interactive session needs a terminal.*\nRun modloop --help for the flags\.\n$/],
    [['mods'], /^modloop mods: a subcommand is needed\nusage: modloop mods <subcommand>/],
    [['frobnicate'], /^modloop: the interactive session needs a terminal/],
    [['--version', 'x'], /^modloop: --version takes no arguments\n/],
  ])('bad usage %j exits 1, as Claude Code does, with the message and what to type', async (argv, err) => {
    const io = capture(p.dir)
    expect(await main(argv, io)).toBe(1)
    expect(io.err()).toMatch(err)
    expect(io.out()).toBe('')
  })

  it.each([
    [['mods', 'list', '--bogus'], "error: unknown option '--bogus'\n"],
    [['mods', 'list', '--jsn'], "error: unknown option '--jsn'\n(Did you mean --json?)\n"],
    [['-p', 'hi', '--mode', 'plan'], "error: unknown option '--mode'\n(Did you mean one of --mod, --model?)\n"],
    [['mods', 'list', '-Z'], "error: unknown option '-Z'\n"],
    [['mods', 'list', '--config'], "error: option '--config <value>' argument missing\n"],
    [['mods', 'list', '--json=yes'], "error: option '--json' does not take an argument\n"],
    [['mods', 'list', 'extra'], "error: too many arguments for 'list'. Expected 0 arguments but got 1.\n"],
    [['mods', 'stack'], "error: missing required argument 'event'\n"],
    [['init'], "error: missing required argument 'mod|distribution'\n"],
    [['init', 'mod'], "error: missing required argument 'name'\n"],
    [['mcp', 'add', 'x'], "error: missing required argument 'commandOrUrl'\n"],
  ])('the parser refusing %j says it in Claude Code\'s (commander\'s) words, alone, and exits 1', async (argv, err) => {
    const io = capture(p.dir)
    expect(await main(argv, io)).toBe(1)
    expect(io.err()).toBe(err)
    expect(io.out()).toBe('')
  })
})

describe('the built CLI', () => {
  it('node bin/modloop.cjs --version', async () => {
    expect(existsSync(`${root}dist/cli/main.js`), 'run `npm run build` first').toBe(true)
    const { stdout } = await promisify(execFile)(process.execPath, [builtCli(), '--version'])
    expect(stdout).toBe(`${pkg.version}\n`)
  })

  it('--version loads neither cosmiconfig, jiti nor the SDK', async () => {
    // A preload that fails any load of the heavy packages (the CLI bundle reaches them through require).
    const guard = `const M = require('node:module'); const load = M._load
M._load = function (s, ...rest) { if (/cosmiconfig|jiti|@anthropic-ai|babel|sucrase/.test(s)) throw new Error('loaded ' + s); return load.call(this, s, ...rest) }`
    const dir = await mkdtemp(join(tmpdir(), 'modloop-guard-'))
    await writeFile(join(dir, 'guard.cjs'), guard)
    const { stdout } = await promisify(execFile)(process.execPath, ['-r', join(dir, 'guard.cjs'), builtCli(), '--version'])
    expect(stdout).toBe(`${pkg.version}\n`)
  })
})
