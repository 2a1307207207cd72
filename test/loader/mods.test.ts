import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ModloopError } from '../../core/errors.js'
import { loadDistribution } from '../../runtime/loader/load-distribution.js'
import { bareMod, builtins, project, typedMod, type Project } from './project.js'

const made: Project[] = []
afterEach(async () => {
  await Promise.all(made.splice(0).map((p) => p.remove()))
})
async function load(files: Parameters<typeof project>[0], extra: Partial<Parameters<typeof loadDistribution>[0]> = {}) {
  const p = await project(files)
  made.push(p)
  return { p, ...(await loadDistribution({ cwd: p.dir, builtins: builtins(), ...extra })) }
}

describe('mod modules', () => {
  it('loads a TS mod that imports modloop and zod from a directory without node_modules, sharing the host zod', async () => {
    const { p, host, errors } = await load({
      '.modlooprc.json': { mods: [['./typed.ts', { level: 3 }]] },
      'typed.ts': typedMod('typed'),
      'same.ts': `export { ModloopError } from 'modloop'\n`,
    })
    expect(errors).toEqual([])
    const mod = host.get('typed')!
    expect(mod).toMatchObject({ version: '1.0.0', source: p.path('typed.ts'), root: p.dir, status: 'loaded', options: { level: 3 } })
    expect(host.bus.stack('tool.call').map((h) => h.mod)).toEqual(['typed'])
    // The mod's schema was built with the very zod the host holds, not a second copy.
    const { jiti } = await import('./jiti-probe.js')
    const ns = (await jiti(p.path('typed.ts'))) as { options: unknown }
    expect(ns.options).toBeInstanceOf(z.ZodObject)
    expect(z.object({ inner: ns.options as z.ZodObject }).parse({ inner: {} })).toEqual({ inner: { level: 1 } })
    // And 'modloop' is the host's own module instance, so its classes are the host's.
    expect(((await jiti(p.path('same.ts'))) as { ModloopError: unknown }).ModloopError).toBe(ModloopError)
  })

  it('loads a bare `export function register(on, options)` JS mod, named after its file', async () => {
    const { host, errors } = await load({
      'modloop.config.json': { mods: [{ name: './mods/bare.js', options: { any: 'thing' } }] },
      'mods/package.json': { type: 'module' },
      'mods/bare.js': bareMod(),
    })
    expect(errors).toEqual([])
    expect(host.get('bare')?.options).toEqual({ any: 'thing' })
  })

  it('loads a default-exported register function and a .mts module', async () => {
    const { host, errors } = await load({
      '.modlooprc.json': { mods: ['./fn.mjs', './m.mts'] },
      'fn.mjs': `export default function register(on) { on('tool.check', ($, e, next) => next(e)) }\n`,
      'm.mts': `import type { On } from 'modloop'\nexport const name = 'emm'\nexport function register(on: On): void {}\n`,
    })
    expect(errors).toEqual([])
    expect(host.list().map((m) => m.name)).toEqual(['fn', 'emm'])
  })

  it('resolves an npm package from the config directory, named after the package', async () => {
    const { p, host, errors } = await load({
      'modloop.config.json': { mods: [['some-mod', { greeting: 'hi' }]] },
      'node_modules/some-mod/package.json': { name: 'some-mod', version: '4.5.6', main: 'index.js' },
      'node_modules/some-mod/index.js': `exports.register = function (on) { on('tool.call', ($, e, next) => next(e)) }\n`,
    })
    expect(errors).toEqual([])
    expect(host.get('some-mod')).toMatchObject({ version: '4.5.6', source: p.path('node_modules/some-mod/index.js'), options: { greeting: 'hi' } })
  })

  it('resolves an ESM-only package through its exports import condition', async () => {
    const { host, errors } = await load({
      'modloop.config.json': { mods: ['@acme/esm-mod'] },
      'node_modules/@acme/esm-mod/package.json': { name: '@acme/esm-mod', type: 'module', exports: { '.': { import: './src/mod.ts' } } },
      'node_modules/@acme/esm-mod/src/mod.ts': typedMod('esm-mod'),
    })
    expect(errors).toEqual([])
    expect(host.list().map((m) => m.name)).toEqual(['esm-mod'])
  })

  it('loads a directory through its package.json main or its index file', async () => {
    const { host, errors } = await load({
      'modloop.config.json': { mods: ['./with-main', './with-index'] },
      'with-main/package.json': { name: 'main-mod', version: '0.2.0', main: 'lib/entry' },
      'with-main/lib/entry.ts': `export function register(on: unknown): void {}\n`,
      'with-index/index.ts': `export function register(on: unknown): void {}\n`,
    })
    expect(errors).toEqual([])
    expect(host.list().map((m) => [m.name, m.version])).toEqual([['main-mod', '0.2.0'], ['with-index', undefined]])
  })

  it('loads built-in mods by name', async () => {
    const { host, errors } = await load({ '.modlooprc.json': { mods: ['alpha'] } }, { builtins: builtins(['alpha'], []) })
    expect(errors).toEqual([])
    expect(host.list().map((m) => [m.name, m.source])).toEqual([['alpha', 'builtin:alpha']])
  })
})

describe('plugin directories', () => {
  const manifest = {
    name: 'guardian',
    version: '0.3.0',
    description: 'guards things',
    userConfig: {
      mode: { type: 'string', default: 'strict', options: ['strict', 'loose'] },
      limit: { type: 'number', default: 5 },
      token: { type: 'string' },
    },
  }
  const hooks = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo ok' }] }] }

  it('loads the module named in hooks.json with userConfig defaults under config overrides, and collects its hooks', async () => {
    const { p, host, errors, hooks: collected } = await load({
      'modloop.config.json': { mods: [['./plugins/guardian', { limit: 9 }]], hooks: { Stop: [] } },
      'plugins/guardian/.claude-plugin/plugin.json': manifest,
      'plugins/guardian/hooks/hooks.json': { description: 'x', modules: ['./register.ts', './extra.ts'], hooks },
      'plugins/guardian/hooks/register.ts': `export function register(on: any, options: Record<string, unknown>): void {}\n`,
      'plugins/guardian/hooks/extra.ts': `export default { name: 'ignored', register() {} }\n`,
    })
    expect(errors).toEqual([])
    expect(host.list().map((m) => [m.name, m.version, m.root, m.options])).toEqual([
      ['guardian', '0.3.0', p.path('plugins/guardian'), { mode: 'strict', limit: 9 }],
      ['guardian:extra', '0.3.0', p.path('plugins/guardian'), { mode: 'strict', limit: 9 }],
    ])
    expect(collected).toEqual([
      { source: p.path('modloop.config.json'), hooks: { Stop: [] } },
      // The plugin rides along: its hooks get its directory, data directory and options.
      { source: p.path('plugins/guardian/hooks/hooks.json'), hooks, plugin: { name: 'guardian', root: p.path('plugins/guardian'), options: { mode: 'strict', limit: 9 } } },
    ])
  })

  it('a plugin with only settings hooks loads no mod but its hooks are collected', async () => {
    const { p, host, errors, hooks: collected } = await load({
      'modloop.config.json': { mods: ['./hooks-only'] },
      'hooks-only/.claude-plugin/plugin.json': { name: 'hooks-only' },
      'hooks-only/hooks/hooks.json': { hooks },
    })
    expect(errors).toEqual([])
    expect(host.list()).toEqual([])
    expect(collected).toEqual([{ source: p.path('hooks-only/hooks/hooks.json'), hooks, plugin: { name: 'hooks-only', root: p.path('hooks-only'), options: {} } }])
  })

  it('a required userConfig field without a value → MODLOOP_ERR_MOD_OPTIONS naming plugin and field', async () => {
    const { host, errors } = await load({
      'modloop.config.json': { mods: ['./p'] },
      'p/.claude-plugin/plugin.json': { name: 'needy', userConfig: { apiUrl: { type: 'string', required: true } } },
      'p/hooks/hooks.json': { modules: ['./register.mjs'] },
      'p/hooks/register.mjs': bareMod(),
    })
    expect(errors.map((e) => [e.code, e.mod, e.field, e.stage])).toEqual([['MODLOOP_ERR_MOD_OPTIONS', 'needy', 'apiUrl', 'options']])
    expect(errors[0]!.message).toMatch(/needy.*apiUrl/)
    expect(host.list()).toEqual([])
  })

  it('an installed package that is a plugin directory loads as a plugin', async () => {
    const { host, errors } = await load({
      'modloop.config.json': { mods: ['acme-plugin'] },
      'node_modules/acme-plugin/package.json': { name: 'acme-plugin' },
      'node_modules/acme-plugin/.claude-plugin/plugin.json': { name: 'acme', version: '1.1.0' },
      'node_modules/acme-plugin/hooks/hooks.json': { modules: ['./register.mjs'] },
      'node_modules/acme-plugin/hooks/register.mjs': bareMod(),
    })
    expect(errors).toEqual([])
    expect(host.list().map((m) => [m.name, m.version])).toEqual([['acme', '1.1.0']])
  })

  it('a malformed manifest → MODLOOP_ERR_PLUGIN naming the file', async () => {
    const { p, errors } = await load({
      'modloop.config.json': { mods: ['./bad'] },
      'bad/.claude-plugin/plugin.json': { version: 1 },
      'bad/hooks/hooks.json': { modules: [] },
    })
    expect(errors.map((e) => [e.code, e.file])).toEqual([['MODLOOP_ERR_PLUGIN', p.path('bad/.claude-plugin/plugin.json')]])
  })
})
