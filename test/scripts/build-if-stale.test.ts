import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
// @ts-expect-error: a plain .mjs script without types
import { isStale, staleBecause } from '../../scripts/build-if-stale.mjs'

let root: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'modloop-stale-'))
  await mkdir(join(root, 'core'), { recursive: true })
  await mkdir(join(root, 'dist', 'bin'), { recursive: true })
})
afterEach(() => rm(root, { recursive: true, force: true }))

const at = (file: string, seconds: number) => utimes(join(root, file), seconds, seconds)

describe('npm start builds only when sources are newer than dist/', () => {
  it('no bundle: stale; a bundle newer than every source: fresh; a source edited since: stale; a test file edited: fresh', async () => {
    await writeFile(join(root, 'core', 'a.ts'), 'export {}\n')
    await at('core/a.ts', 1_000)
    expect(isStale(root)).toBe(true)
    expect(staleBecause(root)).toBe('dist/bin/main.cjs')
    await writeFile(join(root, 'dist', 'bin', 'main.cjs'), '')
    await at('dist/bin/main.cjs', 2_000)
    expect(isStale(root)).toBe(false)
    await writeFile(join(root, 'core', 'a.test.ts'), '')
    await at('core/a.test.ts', 3_000)
    expect(isStale(root)).toBe(false)
    await at('core/a.ts', 3_000)
    expect(isStale(root)).toBe(true)
    // What the tests that run the built CLI name when they refuse it.
    expect(staleBecause(root)).toBe(join('core', 'a.ts'))
  })
})
