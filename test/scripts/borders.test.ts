import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The folders' borders (docs/architecture.md, STYLE.md): what each folder's sources may import.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f))
}

/** Each relative import of `file`, as a path from the repository's root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8')
  const specs = [...text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!)
  return specs.map((s) => relative(root, resolve(root, dirname(file), s)))
}

describe('folder borders', () => {
  it('core/ and runtime/ import nothing from mods/', () => {
    const crossing = ['core', 'runtime'].flatMap(sources).flatMap((f) => importsOf(f).filter((i) => i.startsWith('mods/')).map((i) => `${f} → ${i}`))
    expect(crossing).toEqual([])
  })

  it('hooks-runner/ imports nothing of modloop outside it', () => {
    const crossing = sources('hooks-runner').flatMap((f) => importsOf(f).filter((i) => !i.startsWith('hooks-runner/')).map((i) => `${f} → ${i}`))
    expect(crossing).toEqual([])
  })
})
