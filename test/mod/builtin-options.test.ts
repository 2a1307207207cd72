import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { keptDefaults } from '../../core/mod/kept-defaults.js'
import { BUILTIN_OPTION_DEFAULTS } from '../../mods/_shared/builtin-option-defaults.js'
import { declaredOptions } from '../../mods/_shared/builtin-options.js'
import { readPluginDir } from '../../mods/_shared/plugin-format/read-plugin.js'
import { builtinMods } from '../../mods/index.js'
import { loadDistribution } from '../../runtime/loader/index.js'
import type { Builtins } from '../../runtime/loader/types.js'
import { projectsPerTest } from '../loader/project.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const mods = join(root, 'mods')
/** Each source file that declares a built-in mod's options, with its text. */
const declaring = readdirSync(mods, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && !f.endsWith('builtin-options.ts'))
  .map((f) => ({ file: join(mods, f), text: readFileSync(join(mods, f), 'utf8') }))
  .filter((f) => f.text.includes('builtinOptions('))
const tmp = projectsPerTest()
/** The real built-in mods, none loaded by default: a config names the ones a test loads. */
const builtins = (): Builtins => ({ mods: builtinMods, defaultDistribution: [], hostModule: () => import('../../index.js') as Promise<Record<string, unknown>>, readPlugin: readPluginDir })

describe("built-in mods' option defaults kept ahead of time", () => {
  it('keep, for every declared schema, exactly what it makes of no options (after changing one: npm run build && node scripts/option-defaults.mjs)', async () => {
    for (const { file } of declaring) await import(file)
    const declared = [...declaredOptions()]
    expect(declared.length).toBeGreaterThanOrEqual(25)
    for (const [mod, schema] of declared) {
      // Strict: a default JSON cannot hold (undefined, a function, Infinity) would differ here.
      expect({ mod, defaults: keptDefaults(schema, {}) }).toStrictEqual({ mod, defaults: schema.parse({}) })
    }
    expect(Object.keys(BUILTIN_OPTION_DEFAULTS).sort()).toEqual(declared.map(([mod]) => mod).sort())
  })

  it('are declared once per mod, under its name', () => {
    const names = declaring.flatMap(({ text }) => [...text.matchAll(/builtinOptions\('([^']+)'/g)].map((m) => m[1]))
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([])
    for (const name of names) expect(Object.keys(builtinMods), name).toContain(name)
  })

  it('give each mod a copy of its own, and are not used once a mod is given options', async () => {
    const p = await tmp({ '.modlooprc.json': { mods: [['compaction', { recentFiles: 2, typo: 1 }], 'glob', 'read'] } })
    const { host, errors, warnings } = await loadDistribution({ cwd: p.dir, builtins: builtins() })
    expect(errors).toEqual([])
    // Given options go through the schema: its defaults fill the rest, and an unknown key is named.
    expect(host.get('compaction')?.options).toMatchObject({ recentFiles: 2, recentFileChars: 20_000, auto: true })
    expect(warnings).toEqual([expect.stringContaining('compaction: option "typo" is not among its options (auto, thresholdTokens,')])
    const glob = host.get('glob')?.options as { ignore: string[] }
    expect(glob).toEqual({ additionalDirectories: [], ignore: ['**/.git/**', '**/node_modules/**'], maxResults: 100 })
    expect(Object.isFrozen(glob)).toBe(true)
    expect(keptDefaults(declaredOptions().get('glob')!, {})!.ignore).not.toBe(glob.ignore)
  })

  it('a bad option of a built-in mod is still refused by its schema, naming the mod and the field', async () => {
    const p = await tmp({ '.modlooprc.json': { mods: [['glob', { maxResults: 0 }]] } })
    const { errors } = await loadDistribution({ cwd: p.dir, builtins: builtins() })
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/^glob: option "maxResults": /)])
  })

  it('the kept file is not stale', () => {
    execFileSync(process.execPath, [join(root, 'scripts/option-defaults.mjs'), '--check'], { cwd: root, stdio: 'pipe' })
  })
})
