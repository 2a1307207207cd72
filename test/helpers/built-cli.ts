import { spawn, type SpawnOptions } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
const { staleBecause } = createRequire(import.meta.url)('../../scripts/stale.cjs') as { staleBecause(root: string): string | undefined }

let checked = false

/**
 * bin/modloop.cjs, the CLI as users run it, once its bundle is known to be newer than its sources
 * (scripts/stale.cjs, as `npm start` asks): a test of the CLI after an edit without `npm run build`
 * would pass or fail on the code before the edit. Checked once per worker: nothing builds while
 * tests run (`npm test` builds first).
 */
export function builtCli(): string {
  if (!checked) {
    const why = staleBecause(root)
    if (why === 'dist/bin/main.cjs') throw new Error('the CLI is not built: run `npm run build` first')
    if (why) throw new Error(`dist/bin/main.cjs is older than ${why}: run \`npm run build\` first`)
    checked = true
  }
  return join(root, 'bin', 'modloop.cjs')
}

export interface BuiltRun { code: number; out: string; err: string }

/** The built CLI as a real process: exit code, stdout and stderr, never throwing on a non-zero exit. */
export function builtModloop(args: string[], options: { cwd: string; env: Record<string, string | undefined> }): Promise<BuiltRun> {
  return runNoInput(process.execPath, [builtCli(), ...args], options)
}

/**
 * A process with /dev/null on its standard input, as a terminal user's `-p` run has nothing piped
 * in: an open pipe would be waited for as piped input (cli/piped-input.ts). Its exit code (1 for
 * a signal), stdout and stderr.
 */
export function runNoInput(file: string, args: string[], options: SpawnOptions): Promise<BuiltRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d))
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code: code ?? 1, out, err }))
  })
}

/** As promisify(execFile): stdout and stderr, rejecting on a non-zero exit; nothing piped in. */
export async function execNoInput(file: string, args: string[], options: SpawnOptions): Promise<{ stdout: string; stderr: string }> {
  const run = await runNoInput(file, args, options)
  if (run.code !== 0) throw Object.assign(new Error(`${file} ${args.join(' ')} exited ${run.code}: ${run.err}`), { code: run.code, stdout: run.out, stderr: run.err })
  return { stdout: run.out, stderr: run.err }
}
