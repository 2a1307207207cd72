import { createJiti } from 'jiti'
import { expect } from 'vitest'
import * as modloop from '../../index.js'
import * as testing from '../../testing.js'

/**
 * Runs a mod author's test file as vitest would, without a nested vitest: its `it` blocks are
 * collected and run here with vitest's own `expect`; `modloop` and `modloop/testing` are ours.
 * Returns the names of the tests that ran; a failing assertion throws.
 */
export async function runTestFile(file: string): Promise<string[]> {
  const tests: { name: string; fn: () => unknown }[] = []
  const collect = (name: string, fn: () => unknown) => { tests.push({ name, fn }) }
  const shim = { it: collect, test: collect, describe: (_n: string, fn: () => void) => fn(), expect }
  const jiti = createJiti(import.meta.url, { moduleCache: false, fsCache: false, virtualModules: { vitest: shim, modloop, 'modloop/testing': testing, zod: await import('zod') } })
  await jiti.import(file)
  for (const t of tests) await t.fn()
  return tests.map((t) => t.name)
}
