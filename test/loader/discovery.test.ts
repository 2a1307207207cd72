import { describe, expect, it } from 'vitest'
import { loadDistribution } from '../../runtime/loader/load-distribution.js'
import { SEARCH_PLACES } from '../../runtime/loader/find-config.js'
import { bareMod, builtins, projectsPerTest } from './project.js'

const tmp = projectsPerTest()

const mods = ['./mods/hello.mjs']
const bodies: Record<string, string | object> = {
  'package.json': { name: 'app', modloop: { mods } },
  '.modlooprc': `mods:\n  - ./mods/hello.mjs\n`,
  '.modlooprc.json': { mods },
  '.modlooprc.yaml': `mods: [./mods/hello.mjs]\n`,
  '.modlooprc.yml': `mods: [./mods/hello.mjs]\n`,
  'modloop.config.ts': `const config: { mods: string[] } = { mods: ['./mods/hello.mjs'] }\nexport default config\n`,
  'modloop.config.mts': `export default { mods: ['./mods/hello.mjs'] as string[] }\n`,
  'modloop.config.js': `export default { mods: ['./mods/hello.mjs'] }\n`,
  'modloop.config.mjs': `export default { mods: ['./mods/hello.mjs'] }\n`,
  'modloop.config.json': { mods },
}

describe('config discovery', () => {
  it('covers every search place', () => {
    expect(Object.keys(bodies).sort()).toEqual([...SEARCH_PLACES].sort())
  })

  for (const place of SEARCH_PLACES) {
    it(`finds ${place} from a nested cwd and loads its mods relative to it`, async () => {
      const p = await tmp({ [place]: bodies[place]!, 'mods/hello.mjs': bareMod(), 'a/b/c/.keep': '' })
      const { host, configFile, errors } = await loadDistribution({ cwd: p.path('a/b/c'), builtins: builtins() })
      expect(errors).toEqual([])
      expect(configFile).toBe(p.path(place))
      expect(host.list().map((m) => [m.name, m.source])).toEqual([['hello', p.path('mods/hello.mjs')]])
    })
  }

  it('skips a package.json without a modloop key and keeps searching upward', async () => {
    const p = await tmp({ 'modloop.config.json': { mods }, 'mods/hello.mjs': bareMod(), 'pkg/package.json': { name: 'inner' } })
    const { configFile } = await loadDistribution({ cwd: p.path('pkg'), builtins: builtins() })
    expect(configFile).toBe(p.path('modloop.config.json'))
  })

  it('reads a package.json as cosmiconfig would: empty or with a null key is skipped, one that does not parse stops the search', async () => {
    const p = await tmp({ 'modloop.config.json': { mods }, 'mods/hello.mjs': bareMod(), 'a/package.json': '  \n', 'a/b/package.json': { name: 'b', modloop: null }, 'bad/package.json': '{ "name": ' })
    expect((await loadDistribution({ cwd: p.path('a/b'), builtins: builtins() })).configFile).toBe(p.path('modloop.config.json'))
    const err = await loadDistribution({ cwd: p.path('bad'), builtins: builtins() }).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'MODLOOP_ERR_CONFIG', file: p.path('bad/package.json') })
    expect((err as Error).message).toContain('not valid JSON')
  })

  it('takes the nearest config when several directories hold one', async () => {
    const p = await tmp({ 'modloop.config.json': { mods: [] }, 'sub/.modlooprc.json': { mods: [] } })
    const { configFile } = await loadDistribution({ cwd: p.path('sub'), builtins: builtins() })
    expect(configFile).toBe(p.path('sub/.modlooprc.json'))
  })

  it('loads the default distribution when no config is found', async () => {
    const p = await tmp({ 'empty/.keep': '' })
    const { host, configFile, config } = await loadDistribution({ cwd: p.path('empty'), builtins: builtins(['alpha', 'beta']) })
    expect(configFile).toBeUndefined()
    expect(config.files).toEqual([])
    expect(host.list().map((m) => [m.name, m.source])).toEqual([['alpha', 'builtin:alpha'], ['beta', 'builtin:beta']])
  })

  it('--config takes a file, a directory holding a config, or a package', async () => {
    const p = await tmp({
      'dist/custom.json': { mods: ['./hello.mjs'] },
      'dist/hello.mjs': bareMod(),
      'dir/.modlooprc.json': { mods: ['./hello.mjs'] },
      'dir/hello.mjs': bareMod(),
      'node_modules/acme-agent/package.json': { name: 'acme-agent', version: '2.0.0', modloop: { mods: ['./hello.mjs'] } },
      'node_modules/acme-agent/hello.mjs': bareMod(),
    })
    for (const [ref, expected] of [['./dist/custom.json', 'dist/custom.json'], ['./dir', 'dir/.modlooprc.json'], ['acme-agent', 'node_modules/acme-agent/package.json']] as const) {
      const { host, configFile, errors } = await loadDistribution({ cwd: p.dir, configPath: ref, builtins: builtins() })
      expect(errors).toEqual([])
      expect(configFile).toBe(p.path(expected))
      expect(host.list()[0]?.source).toBe(p.path(expected).replace(/[^/]+$/, 'hello.mjs'))
    }
  })

  it('--config and extends take CommonJS and .cts configs', async () => {
    const p = await tmp({
      'base.cjs': `module.exports = { mods: ['./hello.mjs'] }\n`,
      'typed.cts': `const config: { extends: string } = { extends: './base.cjs' }\nmodule.exports = config\n`,
      'hello.mjs': bareMod(),
    })
    const { host, errors, config } = await loadDistribution({ cwd: p.dir, configPath: './typed.cts', builtins: builtins() })
    expect(errors).toEqual([])
    expect(config.files).toEqual([p.path('base.cjs'), p.path('typed.cts')])
    expect(host.list().map((m) => m.name)).toEqual(['hello'])
  })

  it('--config naming nothing → MODLOOP_ERR_CONFIG', async () => {
    const p = await tmp({})
    await expect(loadDistribution({ cwd: p.dir, configPath: './nope.json', builtins: builtins() })).rejects.toMatchObject({ code: 'MODLOOP_ERR_CONFIG' })
  })

  it('a config that does not parse → MODLOOP_ERR_CONFIG naming the file', async () => {
    const p = await tmp({ '.modlooprc.json': '{ "mods": [ ' })
    const err = await loadDistribution({ cwd: p.dir, builtins: builtins() }).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'MODLOOP_ERR_CONFIG', file: p.path('.modlooprc.json') })
  })

  it('a TS config with a syntax error → MODLOOP_ERR_CONFIG naming file and line', async () => {
    const p = await tmp({ 'modloop.config.ts': `const a: number = 1\n\nexport default { mods: [ }\n` })
    const err = await loadDistribution({ cwd: p.dir, builtins: builtins() }).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'MODLOOP_ERR_CONFIG' })
    expect((err as Error).message).toContain(`${p.path('modloop.config.ts')}:3:`)
  })

  it('--mod adds mods resolved from cwd after the config\'s own', async () => {
    const p = await tmp({ '.modlooprc.json': { mods }, 'mods/hello.mjs': bareMod(), 'extra.mjs': bareMod() })
    const { host } = await loadDistribution({ cwd: p.dir, extraMods: ['./extra.mjs'], builtins: builtins() })
    expect(host.list().map((m) => m.name)).toEqual(['hello', 'extra'])
  })
})
