import { appendFileSync, mkdirSync, rmSync, symlinkSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import type { LogLevel } from '../core/mod/build-api.js'
import type { ModHost } from '../core/mod/host.js'

/**
 * Claude Code's categories that name a part of modloop: `--debug hooks` is the settings hooks'
 * runner (the shell-hooks mod), `mcp` the mcp mod, `api` the model client's requests. Any other
 * category is a mod's name.
 */
const CATEGORY_OF: Readonly<Record<string, string>> = { 'shell-hooks': 'hooks' }

/**
 * The debug log `--debug [filter]` and `--debug-file <path>` ask for: every log line of every mod
 * and of the runtime, debug ones included, as `<ISO time> [LEVEL] <category>: <text>`. It goes to
 * `--debug-file`, else to `~/.claude/debug/<session id>.txt` (with a `latest` link beside it), as
 * Claude Code's does; lines written before the session has an id wait for it.
 */
export class DebugLog {
  private file: string | undefined
  private toStderr = false
  private readonly held: string[] = []
  private readonly only: Set<string> | undefined
  private readonly except: Set<string> | undefined

  constructor(filter: string | undefined, file: string | undefined, private readonly home: string) {
    ;[this.only, this.except] = parseFilter(filter)
    if (file === STDERR) this.toStderr = true
    else if (file) this.file = openFile(resolve(file))
  }

  write(category: string, level: LogLevel, text: string): void {
    const name = CATEGORY_OF[category] ?? category
    if (this.only && !this.only.has(name) && !this.only.has(category)) return
    if (this.except && (this.except.has(name) || this.except.has(category))) return
    const line = `${new Date().toISOString()} [${level.toUpperCase()}] ${category}: ${text}\n`
    if (this.toStderr) process.stderr.write(line)
    else if (this.file) appendFileSync(this.file, line)
    else this.held.push(line)
  }

  /** Every log line of the host's mods, for the host's life (a terminal session's host is its own). */
  tap(host: ModHost): void {
    host.tapLog((mod, level, text) => this.write(mod, level, text))
  }

  /** Once the session's id is known: the default place, when no --debug-file named one. */
  placeFor(sessionId: string): void {
    if (this.file || this.toStderr) return
    const dir = join(this.home, 'debug')
    this.file = openFile(join(dir, `${sessionId}.txt`))
    appendFileSync(this.file, this.held.splice(0).join(''))
    const latest = join(dir, 'latest')
    try {
      rmSync(latest, { force: true })
      symlinkSync(this.file, latest)
    } catch {
      // The link is a convenience; a file system without links still has the log.
    }
  }
}

/**
 * `--debug-to-stderr`'s file: written through the process's own stream, at its offset (the file
 * opened anew would write over what stderr already holds when it is a file).
 */
export const STDERR = '/dev/stderr'

/** The debug log a query's options ask for, if any: `debug` (true or a filter) or `debugFile`. */
export function debugLogOf(options: { debug?: boolean | string; debugFile?: string; env?: Record<string, string | undefined> }): DebugLog | undefined {
  if (!options.debug && !options.debugFile) return undefined
  const env = options.env ?? process.env
  const home = env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude')
  return new DebugLog(typeof options.debug === 'string' ? options.debug : undefined, options.debugFile, home)
}

/**
 * `hooks,mcp` keeps those categories only, `!hooks,!mcp` drops them; a filter that mixes the two
 * forms filters nothing, as Claude Code's does.
 */
function parseFilter(filter: string | undefined): [Set<string> | undefined, Set<string> | undefined] {
  const names = (filter ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)
  const negated = names.filter((n) => n.startsWith('!'))
  if (names.length === 0 || (negated.length > 0 && negated.length < names.length)) return [undefined, undefined]
  return negated.length > 0 ? [undefined, new Set(negated.map((n) => n.slice(1)))] : [new Set(names), undefined]
}

function openFile(path: string): string {
  mkdirSync(dirname(path), { recursive: true })
  appendFileSync(path, '')
  return path
}
