import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))

export interface BuiltRun { code: number; out: string; err: string }

/** The built CLI as a real process: exit code, stdout and stderr, never throwing on a non-zero exit. */
export function builtModloop(args: string[], options: { cwd: string; env: Record<string, string | undefined> }): Promise<BuiltRun> {
  expect(existsSync(join(root, 'dist', 'bin', 'main.cjs')), 'run `npm run build` first').toBe(true)
  return new Promise((resolve) => {
    // Room for what a run may print (execFile kills a child past its 1 MB default).
    execFile(process.execPath, [join(root, 'bin', 'modloop.cjs'), ...args], { maxBuffer: 64 * 1024 * 1024, ...options }, (error, out, err) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out, err })
    })
  })
}
