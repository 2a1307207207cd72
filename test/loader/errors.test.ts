import { describe, expect, it } from 'vitest'
import { isModloopError } from '../../core/errors.js'
import { loadDistribution } from '../../runtime/loader/load-distribution.js'
import { bareMod, builtins, typedMod, projectsPerTest } from './project.js'

const tmp = projectsPerTest()
async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string; file?: string; field?: string }> {
  const err = await promise.then(() => undefined, (e: unknown) => e)
  if (!isModloopError(err)) throw new Error(`expected a ModloopError, got ${String(err)}`)
  return err
}
const dependent = (name: string, deps: string[]) =>
  `import { defineMod } from 'modloop'\nexport default defineMod({ name: '${name}', dependsOn: ${JSON.stringify(deps)}, register() {} })\n`

describe('config errors', () => {
  it('an unknown key → MODLOOP_ERR_CONFIG_KEY naming the file and the key path', async () => {
    const p = await tmp({ 'modloop.config.json': { mods: ['a', ['b', {}], { name: 'c', opts: {} }] } })
    const err = await rejection(loadDistribution({ cwd: p.dir, builtins: builtins() }))
    expect(err.code).toBe('MODLOOP_ERR_CONFIG_KEY')
    expect(err.message).toContain('modloop.config.json: unknown key "mods[2].opts"')
    expect(err).toMatchObject({ file: p.path('modloop.config.json'), field: 'mods[2].opts' })
  })

  it('malformed JSON → MODLOOP_ERR_CONFIG naming the file and what is wrong; package.json the same', async () => {
    const p = await tmp({ 'modloop.config.json': '{ "mods": [ "a", ] }' })
    const err = await rejection(loadDistribution({ cwd: p.dir, builtins: builtins() }))
    expect(err).toMatchObject({ code: 'MODLOOP_ERR_CONFIG', file: p.path('modloop.config.json') })
    expect(err.message).toMatch(/modloop\.config\.json: not valid JSON: Unexpected token/)
    const q = await tmp({ 'package.json': '{ "name": "x", "modloop": { "mods": [] }, }' })
    const err2 = await rejection(loadDistribution({ cwd: q.dir, builtins: builtins() }))
    expect(err2).toMatchObject({ code: 'MODLOOP_ERR_CONFIG', file: q.path('package.json') })
  })

  it('an unknown top-level key in a parent config names that parent', async () => {
    const p = await tmp({ 'modloop.config.json': { extends: './parent.json' }, 'parent.json': { mod: [] } })
    const err = await rejection(loadDistribution({ cwd: p.dir, builtins: builtins() }))
    expect(err).toMatchObject({ code: 'MODLOOP_ERR_CONFIG_KEY', file: p.path('parent.json'), field: 'mod' })
  })

  it('a value of the wrong type → MODLOOP_ERR_CONFIG naming file, path and the schema message', async () => {
    const p = await tmp({ '.modlooprc.yaml': 'mods:\n  - [./a.mjs, 3]\nmodel: 4\n' })
    const err = await rejection(loadDistribution({ cwd: p.dir, builtins: builtins() }))
    expect(err.code).toBe('MODLOOP_ERR_CONFIG')
    expect(err.message).toMatch(/\.modlooprc\.yaml: "mods\[0\]\[1\]": .*expected record/)
  })
})

describe('mod errors, collected per mod', () => {
  it('not found → MODLOOP_ERR_MOD_RESOLVE naming the specifier and where it was resolved from; the others still load', async () => {
    const p = await tmp({ 'sub/modloop.config.json': { mods: ['./missing.ts', 'not-installed', './ok.mjs'] }, 'sub/ok.mjs': bareMod() })
    const { host, errors } = await loadDistribution({ cwd: p.path('sub'), builtins: builtins() })
    expect(errors.map((e) => [e.code, e.stage, e.file])).toEqual([
      ['MODLOOP_ERR_MOD_RESOLVE', 'resolve', p.path('sub/modloop.config.json')],
      ['MODLOOP_ERR_MOD_RESOLVE', 'resolve', p.path('sub/modloop.config.json')],
    ])
    expect(errors[0]!.message).toContain('"./missing.ts"')
    expect(errors[0]!.message).toContain(p.path('sub/missing.ts'))
    expect(errors[1]!.message).toContain('"not-installed"')
    expect(errors[1]!.message).toContain(`from ${p.path('sub')}`)
    expect(host.errors).toEqual(errors)
    expect(host.list().map((m) => m.name)).toEqual(['ok'])
  })

  it('a module without register → MODLOOP_ERR_MOD_SHAPE naming the file', async () => {
    const p = await tmp({ '.modlooprc.json': { mods: ['./nothing.ts'] }, 'nothing.ts': 'export const x: number = 1\n' })
    const { errors } = await loadDistribution({ cwd: p.dir, builtins: builtins() })
    expect(errors.map((e) => [e.code, e.stage, e.file])).toEqual([['MODLOOP_ERR_MOD_SHAPE', 'shape', p.path('nothing.ts')]])
  })

  it('options failing the zod schema → MODLOOP_ERR_MOD_OPTIONS naming the mod and the field path', async () => {
    const p = await tmp({
      '.modlooprc.json': { mods: [['./typed.ts', { nested: { count: 'many' } }]] },
      'typed.ts': typedMod('typed', 'z.object({ nested: z.object({ count: z.number() }) })'),
    })
    const { host, errors } = await loadDistribution({ cwd: p.dir, builtins: builtins() })
    expect(errors.map((e) => [e.code, e.stage, e.mod, e.field, e.file])).toEqual([['MODLOOP_ERR_MOD_OPTIONS', 'options', 'typed', 'nested.count', p.path('typed.ts')]])
    expect(host.list()).toEqual([])
  })

  it('an option the schema does not have (a typo) is a warning naming the config, the mod and the option; the mod loads', async () => {
    const p = await tmp({ '.modlooprc.json': { mods: [['./typed.ts', { levl: 3 }]] }, 'typed.ts': typedMod('typed') })
    const { host, errors, warnings } = await loadDistribution({ cwd: p.dir, builtins: builtins() })
    expect(errors).toEqual([])
    expect(warnings).toEqual([`${p.path('.modlooprc.json')}: typed: option "levl" is not among its options (level), so it does nothing`])
    expect(host.get('typed')?.options).toEqual({ level: 1 })
  })

  it('two entries of one config naming the same mod → MODLOOP_ERR_MOD_DUPLICATE', async () => {
    const p = await tmp({
      '.modlooprc.json': { mods: ['./a/guard.ts', './b/guard.ts', './x.mjs', './x.mjs'] },
      'a/guard.ts': typedMod('guard'),
      'b/guard.ts': typedMod('guard'),
      'x.mjs': bareMod(),
    })
    const { host, errors } = await loadDistribution({ cwd: p.dir, builtins: builtins() })
    expect(errors.map((e) => [e.code, e.mod])).toEqual([['MODLOOP_ERR_MOD_DUPLICATE', 'guard'], ['MODLOOP_ERR_MOD_DUPLICATE', 'x']])
    expect(host.list().map((m) => [m.name, m.source])).toEqual([['guard', p.path('a/guard.ts')], ['x', p.path('x.mjs')]])
  })

  it('missing and cyclic dependsOn are reported by bind with their codes', async () => {
    const p = await tmp({
      '.modlooprc.json': { mods: ['./needs-ghost.ts', './ping.ts', './pong.ts', './fine.ts'] },
      'needs-ghost.ts': dependent('needs-ghost', ['ghost']),
      'ping.ts': dependent('ping', ['pong']),
      'pong.ts': dependent('pong', ['ping']),
      'fine.ts': dependent('fine', []),
    })
    const { host, errors } = await loadDistribution({ cwd: p.dir, builtins: builtins() })
    expect(errors).toEqual([])
    host.bind()
    // The host files the cycle once per member it drops; the codes are what matter here.
    const reported = [...new Set(host.errors)].map((e) => [e.code, e.mod])
    expect(reported).toEqual([['MODLOOP_ERR_MOD_DEPENDENCY', 'needs-ghost'], ['MODLOOP_ERR_MOD_CYCLE', 'ping']])
    expect(host.list().filter((m) => m.status === 'loaded').map((m) => m.name)).toEqual(['fine'])
  })

  it('a syntax error in a TS mod → MODLOOP_ERR_MOD_IMPORT whose message has the file and line', async () => {
    const p = await tmp({
      '.modlooprc.json': { mods: ['./broken.ts', './ok.mjs'] },
      'broken.ts': `import { z } from 'zod'\n\nexport function register(on: unknown): void {\n  const x = {;\n}\n`,
      'ok.mjs': bareMod(),
    })
    const { host, errors } = await loadDistribution({ cwd: p.dir, builtins: builtins() })
    expect(errors.map((e) => [e.code, e.stage, e.file])).toEqual([['MODLOOP_ERR_MOD_IMPORT', 'import', p.path('broken.ts')]])
    expect(errors[0]!.message).toContain(`${p.path('broken.ts')}:4:`)
    expect(host.list().map((m) => m.name)).toEqual(['ok'])
  })

  it('a throw at module level → MODLOOP_ERR_MOD_IMPORT with its position', async () => {
    const p = await tmp({ '.modlooprc.json': { mods: ['./throws.ts'] }, 'throws.ts': `const n: number = 1\n\nthrow new Error('no config for ' + n)\n` })
    const { errors } = await loadDistribution({ cwd: p.dir, builtins: builtins() })
    expect(errors[0]).toMatchObject({ code: 'MODLOOP_ERR_MOD_IMPORT', file: p.path('throws.ts') })
    expect(errors[0]!.message).toContain('no config for 1')
    expect(errors[0]!.message).toContain(`${p.path('throws.ts')}:3:`)
  })

  it('an import the mod cannot satisfy → MODLOOP_ERR_MOD_IMPORT naming the mod file and the missing module', async () => {
    const p = await tmp({ '.modlooprc.json': { mods: ['./needs.ts'] }, 'needs.ts': `import pad from 'left-pad-not-here'\nexport const register = () => pad\n` })
    const { errors } = await loadDistribution({ cwd: p.dir, builtins: builtins() })
    expect(errors[0]).toMatchObject({ code: 'MODLOOP_ERR_MOD_IMPORT', file: p.path('needs.ts') })
    expect(errors[0]!.message).toContain('left-pad-not-here')
  })

  it('register throwing → MODLOOP_ERR_MOD_REGISTER at stage register', async () => {
    const p = await tmp({ '.modlooprc.json': { mods: ['./boom.mjs'] }, 'boom.mjs': `export function register() { throw new Error('boom') }\n` })
    const { errors } = await loadDistribution({ cwd: p.dir, builtins: builtins() })
    expect(errors.map((e) => [e.code, e.stage, e.mod])).toEqual([['MODLOOP_ERR_MOD_REGISTER', 'register', 'boom']])
  })

  it('one event registered twice without a matcher → the mod fails to load, naming the event; with matchers it loads', async () => {
    const twice = `export function register(on) {\n  on('turn.start', (_$, e, next) => next(e))\n  on('turn.start', (_$, e, next) => next(e))\n}\n`
    const matched = `export function register(on) {\n  on('tool.call', { tool: 'Read' }, (_$, e, next) => next(e))\n  on('tool.call', { tool: 'Write' }, (_$, e, next) => next(e))\n  on('tool.call', (_$, e, next) => next(e))\n}\n`
    const p = await tmp({ '.modlooprc.json': { mods: ['./twice.mjs', './matched.mjs'] }, 'twice.mjs': twice, 'matched.mjs': matched })
    const { errors, host } = await loadDistribution({ cwd: p.dir, builtins: builtins() })
    expect(errors.map((e) => [e.code, e.mod])).toEqual([['MODLOOP_ERR_MOD_REGISTER', 'twice']])
    expect(errors[0]!.message).toContain('on("turn.start") is registered twice without a matcher')
    expect(host.get('matched')?.status).toBe('loaded')
    await host.close()
  })

  it('a removed entry takes its load error with it', async () => {
    const p = await tmp({ 'parent.json': { mods: ['./gone.ts'] }, 'modloop.config.json': { extends: './parent.json', mods: [{ name: './gone.ts', enabled: false }] } })
    const { errors } = await loadDistribution({ cwd: p.dir, builtins: builtins() })
    expect(errors).toEqual([])
  })
})

describe('strict mode (--strict-mods)', () => {
  it('throws the first error instead of collecting it', async () => {
    const p = await tmp({ '.modlooprc.json': { mods: ['./ok.mjs', './missing.mjs', './nothing.mjs'] }, 'ok.mjs': bareMod(), 'nothing.mjs': 'export const x = 1\n' })
    const err = await rejection(loadDistribution({ cwd: p.dir, strict: true, builtins: builtins() }))
    expect(err.code).toBe('MODLOOP_ERR_MOD_RESOLVE')
  })

  it('throws options errors the host reports', async () => {
    const p = await tmp({ '.modlooprc.json': { mods: [['./typed.ts', { level: 'high' }]] }, 'typed.ts': typedMod('typed') })
    const err = await rejection(loadDistribution({ cwd: p.dir, strict: true, builtins: builtins() }))
    expect(err).toMatchObject({ code: 'MODLOOP_ERR_MOD_OPTIONS', field: 'level' })
  })
})
