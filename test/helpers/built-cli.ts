import { spawn, type SpawnOptions } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
const BUNDLE = join(root, 'dist', 'bin', 'main.cjs')

let checked = false

/**
 * bin/modloop.cjs, the CLI as users run it, once its bundle is known to be newer than every source
 * it was made from (dist/bin/sources.json, written by scripts/bundle.mjs): a test of the CLI after
 * an edit without `npm run build` would pass or fail on the code before the edit. Checked once per
 * worker: nothing builds while tests run (`npm test` builds first).
 */
export function builtCli(): string {
  if (!checked) checkBuild()
  checked = true
  return join(root, 'bin', 'modloop.cjs')
}

function checkBuild(): void {
  let built: number
  let sources: string[]
  try {
    built = statSync(BUNDLE).mtimeMs
    sources = JSON.parse(readFileSync(join(root, 'dist', 'bin', 'sources.json'), 'utf8')) as string[]
  } catch {
    throw new Error('the CLI is not built: run `npm run build` first')
  }
  const newer = sources.find((f) => { try { return statSync(join(root, f)).mtimeMs > built } catch { return false } })
  if (newer) throw new Error(`dist/bin/main.cjs is older than ${newer}: run \`npm run build\` first`)
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
