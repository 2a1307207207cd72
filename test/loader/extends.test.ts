import { describe, expect, it } from 'vitest'
import { loadDistribution } from '../../runtime/loader/load-distribution.js'
import { bareMod, builtins, typedMod, projectsPerTest } from './project.js'

const tmp = projectsPerTest()

describe('extends', () => {
  it('merges a three-level chain: parent mods first, re-configuration in place, removal by name', async () => {
    const p = await tmp({
      // base: guard (defineMod name 'guard'), logger, audit
      'base/modloop.config.json': {
        mods: [['./guard.ts', { level: 1 }], './logger.mjs', ['./audit.mjs', { keep: true }]],
        model: 'base-model',
        permissions: { allow: ['Read'], defaultMode: 'default' },
        env: { A: '1', B: '1' },
        hooks: { Stop: [{ hooks: [] }] },
      },
      'base/guard.ts': typedMod('guard'),
      'base/logger.mjs': bareMod(),
      'base/audit.mjs': bareMod(),
      // team: re-configures guard by its mod name, adds lint
      'team/.modlooprc.json': {
        extends: '../base',
        mods: [['guard', { level: 2 }], './lint.mjs'],
        permissions: { allow: ['Bash(ls)'], deny: ['WebFetch'] },
        env: { B: '2' },
        hooks: { Stop: [{ hooks: [] }] },
      },
      'team/lint.mjs': bareMod(),
      // project: removes logger by specifier string and guard by mod name, re-configures lint
      'project/modloop.config.json': {
        extends: ['../team/.modlooprc.json'],
        mods: [{ name: './../base/logger.mjs', enabled: false }, { name: 'lint', options: { fix: true } }, './own.mjs', { name: 'audit', enabled: true }],
        model: 'project-model',
      },
      'project/own.mjs': bareMod(),
    })
    const { host, config, errors, hooks } = await loadDistribution({ cwd: p.path('project'), builtins: builtins() })
    expect(errors).toEqual([])
    expect(host.list().map((m) => [m.name, m.options])).toEqual([
      ['guard', { level: 2 }],
      ['audit', { keep: true }],
      ['lint', { fix: true }],
      ['own', {}],
    ])
    expect(config.files).toEqual([p.path('base/modloop.config.json'), p.path('team/.modlooprc.json'), p.path('project/modloop.config.json')])
    expect(config.model).toBe('project-model')
    expect(config.permissions).toEqual({ allow: ['Read', 'Bash(ls)'], deny: ['WebFetch'], defaultMode: 'default' })
    expect(config.env).toEqual({ A: '1', B: '2' })
    expect(hooks.map((h) => h.source)).toEqual([p.path('base/modloop.config.json'), p.path('team/.modlooprc.json')])
    expect(config.mods.map((m) => [m.spec, m.from])).toEqual([
      ['./guard.ts', p.path('team/.modlooprc.json')],
      ['./audit.mjs', p.path('project/modloop.config.json')],
      ['./lint.mjs', p.path('project/modloop.config.json')],
      ['./own.mjs', p.path('project/modloop.config.json')],
    ])
  })

  it('removes a parent mod by its defineMod name', async () => {
    const p = await tmp({
      'parent.json': { mods: ['./guard.ts', './other.mjs'] },
      'guard.ts': typedMod('guard'),
      'other.mjs': bareMod(),
      'modloop.config.json': { extends: './parent.json', mods: [{ name: 'guard', enabled: false }] },
    })
    const { host, errors } = await loadDistribution({ cwd: p.dir, builtins: builtins() })
    expect(errors).toEqual([])
    expect(host.list().map((m) => m.name)).toEqual(['other'])
  })

  it('a child module loading a mod of a parent\'s name takes its place, keeping its options', async () => {
    const p = await tmp({
      'parent/.modlooprc.json': { mods: ['./first.mjs', ['./guard.ts', { level: 4 }], './last.mjs'] },
      'parent/first.mjs': bareMod(),
      'parent/last.mjs': bareMod(),
      'parent/guard.ts': typedMod('guard'),
      'modloop.config.json': { extends: './parent', mods: ['./my-guard.ts'] },
      'my-guard.ts': typedMod('guard').replace("version: '1.0.0'", "version: '9.0.0'"),
    })
    const { host, errors } = await loadDistribution({ cwd: p.dir, builtins: builtins() })
    expect(errors).toEqual([])
    expect(host.list().map((m) => [m.name, m.version, m.source, m.options])).toEqual([
      ['first', undefined, p.path('parent/first.mjs'), {}],
      ['guard', '9.0.0', p.path('my-guard.ts'), { level: 4 }],
      ['last', undefined, p.path('parent/last.mjs'), {}],
    ])
  })

  it('extends arrays merge in order, and an installed package can be extended', async () => {
    const p = await tmp({
      'node_modules/acme-dist/package.json': { name: 'acme-dist', modloop: { mods: ['./a.mjs'], model: 'acme' } },
      'node_modules/acme-dist/a.mjs': bareMod(),
      'second.json': { mods: ['./b.mjs'], model: 'second' },
      'b.mjs': bareMod(),
      'modloop.config.json': { extends: ['acme-dist', './second.json'], mods: ['./c.mjs'] },
      'c.mjs': bareMod(),
    })
    const { host, config, errors } = await loadDistribution({ cwd: p.dir, builtins: builtins() })
    expect(errors).toEqual([])
    expect(host.list().map((m) => m.name)).toEqual(['a', 'b', 'c'])
    expect(config.model).toBe('second')
  })

  it("extends 'modloop' starts from the built-in default distribution", async () => {
    const p = await tmp({ '.modlooprc.json': { extends: 'modloop', mods: [{ name: 'beta', enabled: false }, './x.mjs'] }, 'x.mjs': bareMod() })
    const { host } = await loadDistribution({ cwd: p.dir, builtins: builtins(['alpha', 'beta']) })
    expect(host.list().map((m) => m.name)).toEqual(['alpha', 'x'])
  })

  it('a cycle → MODLOOP_ERR_EXTENDS naming the chain', async () => {
    const p = await tmp({
      'modloop.config.json': { extends: './b.json' },
      'b.json': { extends: './c.json' },
      'c.json': { extends: './modloop.config.json' },
    })
    const err = await loadDistribution({ cwd: p.dir, builtins: builtins() }).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'MODLOOP_ERR_EXTENDS' })
    expect((err as Error).message).toContain(`${p.path('modloop.config.json')} -> ${p.path('b.json')} -> ${p.path('c.json')} -> ${p.path('modloop.config.json')}`)
  })

  it('a missing parent → MODLOOP_ERR_EXTENDS naming it and the config', async () => {
    const p = await tmp({ 'modloop.config.json': { extends: 'no-such-dist' } })
    const err = await loadDistribution({ cwd: p.dir, builtins: builtins() }).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'MODLOOP_ERR_EXTENDS', file: p.path('modloop.config.json') })
    expect((err as Error).message).toContain('no-such-dist')
  })
})
