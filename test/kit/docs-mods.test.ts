import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runTestFile } from './run-test-file.js'

// docs/mods.md must work as written: its mod and its test are taken from the page itself.
const page = await readFile(new URL('../../docs/mods.md', import.meta.url), 'utf8')
const blocks = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!)
const mod = blocks.find((b) => b.includes("name: 'my-mod'"))!
const test = blocks.find((b) => b.includes('createTestHost'))!

let dir: string | undefined
afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined))

describe('docs/mods.md', () => {
  it('the example mod passes the example test', async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-docs-')))
    await writeFile(join(dir, 'my-mod.ts'), mod)
    await writeFile(join(dir, 'my-mod.test.ts'), test)
    expect(await runTestFile(join(dir, 'my-mod.test.ts'))).toEqual(['refuses sudo'])
  })
})
