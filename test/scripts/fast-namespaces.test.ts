import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { runInNewContext } from 'node:vm'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a build script, plain JavaScript
import { fastNamespaces } from '../../scripts/fast-namespaces.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** A small bundle as scripts/bundle.mjs builds them: one namespace import of a module with live exports. */
async function bundle(): Promise<string> {
  const out = await build({
    stdin: {
      contents: "import * as ns from './lib.js'\nmodule.exports = { ns, bump: ns.bump }",
      resolveDir: root, sourcefile: 'entry.mjs', loader: 'js',
    },
    plugins: [{ name: 'lib', setup: (b) => {
      b.onResolve({ filter: /^\.\/lib\.js$/ }, () => ({ path: 'lib', namespace: 'lib' }))
      b.onLoad({ filter: /.*/, namespace: 'lib' }, () => ({ contents: 'export let count = 0\nexport function bump() { count++ }\nexport const zeta = 1, alpha = 2', loader: 'js' }))
    } }],
    bundle: true, format: 'cjs', platform: 'node', write: false, minifyWhitespace: true, minifySyntax: true, logLevel: 'silent',
  })
  return out.outputFiles[0]!.text
}

function run(text: string): { ns: Record<string, unknown>; bump: () => void } {
  const module = { exports: {} as { ns: Record<string, unknown>; bump: () => void } }
  runInNewContext(text, { module, exports: module.exports, require })
  return module.exports
}

describe('ES module namespaces built in dictionary mode (scripts/fast-namespaces.mjs)', () => {
  it('read as before: live bindings, the exports in order, and nothing more', async () => {
    const text = await bundle()
    const fast = fastNamespaces(text, 'entry.cjs')
    expect(fast).not.toEqual(text)
    const { ns, bump } = run(fast)
    expect(Object.keys(ns)).toEqual(Object.keys(run(text).ns))
    expect(Object.keys(ns)).toEqual(['alpha', 'bump', 'count', 'zeta'])
    expect(ns.count).toBe(0)
    bump()
    expect(ns.count).toBe(1)
    expect(Object.getOwnPropertyNames(ns)).not.toContain('modloop:a')
  })

  it('are in dictionary mode, the getters literal too (V8 says so, asked with --allow-natives-syntax)', async () => {
    const probe = `${fastNamespaces(await bundle(), 'entry.cjs')}\nconsole.log(JSON.stringify([%HasFastProperties(module.exports.ns), module.exports.ns.zeta]))`
    const out = execFileSync(process.execPath, ['--allow-natives-syntax', '-e', `const module = { exports: {} }; ${probe}`], { encoding: 'utf8' })
    expect(JSON.parse(out)).toEqual([false, 1])
  })

  it('stop the build when esbuild writes its helper otherwise', async () => {
    const text = (await bundle()).replace('for(var name in all)', 'for(let name in all)')
    expect(() => fastNamespaces(text, 'entry.cjs')).toThrow(/entry\.cjs: esbuild's __export helper no longer reads/)
  })

  it('hold for every namespace of the built bundle and vendor files', () => {
    for (const dir of ['bin', 'vendor']) {
      for (const name of readdirSync(join(root, 'dist', dir)).filter((n) => n.endsWith('.cjs'))) {
        const text = readFileSync(join(root, 'dist', dir, name), 'latin1')
        expect({ name, plain: text.match(/__export\([\w$]+,\{(?!__proto__:null,)/g) ?? [] }).toEqual({ name, plain: [] })
      }
    }
  })
})
