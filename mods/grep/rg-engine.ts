import { childProcess } from '../../hooks-runner/child-process.js'
import type { SearchSpec } from './grep-input.js'
import { PatternError, UnknownTypeError } from './grep-errors.js'
import { VCS_EXCLUDES } from './walk.js'
import { collectFor, siftsContent } from './rg-denied.js'

export class RgError extends Error {}

/**
 * The ripgrep arguments for a search. Its config file is turned off; git's ignore rules (.gitignore,
 * .git/info/exclude, the global excludes) count inside a git repository only, as in Claude Code's
 * Grep, and the JavaScript engine selects files the same way.
 */
export function rgArgs(spec: SearchSpec): string[] {
  const args = ['--no-config', '--hidden', '--color', 'never', '--no-heading']
  for (const g of [...spec.globs, ...VCS_EXCLUDES]) args.push('--glob', g)
  if (spec.type !== undefined) args.push('--type', spec.type)
  if (spec.ignoreCase) args.push('-i')
  if (spec.multiline) args.push('-U', '--multiline-dotall')
  if (spec.mode === 'files_with_matches') args.push('-l')
  else {
    // Content and counts come in path order, so paging through them is stable.
    args.push('--sort', 'path')
    if (spec.mode === 'count') args.push('-c')
    else {
      if (siftsContent(spec)) args.push('--null', '-n')
      else args.push(spec.lineNumbers ? '-n' : '-N')
      if (spec.before > 0) args.push('-B', String(spec.before))
      if (spec.after > 0) args.push('-A', String(spec.after))
    }
  }
  args.push('-e', spec.pattern, '--', spec.root)
  return args
}

/** Runs ripgrep and collects its output lines; stops it once `spec.stopAfter` lines are in. */
export function searchWithRg(rg: string, spec: SearchSpec): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = childProcess().spawn(rg, rgArgs(spec), { stdio: ['ignore', 'pipe', 'pipe'] })
    const out: string[] = []
    const collect = collectFor(spec)
    let stderr = ''
    let stopped = false
    const stop = () => {
      stopped = true
      child.kill('SIGTERM')
    }
    spec.signal.addEventListener('abort', stop, { once: true })
    child.stderr.setEncoding('utf8').on('data', (d: string) => { if (stderr.length < 10_000) stderr += d })
    // Split on LF only: a CR is part of a line in ripgrep's output, as in the JavaScript engine.
    let partial = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n')
      partial = lines.pop()!
      for (const line of lines) if (out.length < spec.stopAfter) collect(line, out)
      if (out.length >= spec.stopAfter && !stopped) stop()
    })
    child.on('error', reject)
    child.on('close', (code) => {
      if (partial && out.length < spec.stopAfter) collect(partial, out)
      spec.signal.removeEventListener('abort', stop)
      // 1 is "no match"; 2 with output means some files could not be read, which is not fatal.
      if (stopped || code === 0 || code === 1 || (code === 2 && out.length > 0)) return resolve(out)
      const message = stderr.trim() || `ripgrep exited with code ${code}`
      if (/regex parse error|error parsing regex|look-around|backreferences/i.test(message)) reject(new PatternError(message))
      else if (/unrecognized file type/i.test(message)) reject(new UnknownTypeError(message))
      else reject(new RgError(message))
    })
  })
}
