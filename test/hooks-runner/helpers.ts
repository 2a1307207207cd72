import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import type { HookSource } from '../../hooks-runner/hooks-config.js'
import { resolveHooks } from '../../hooks-runner/resolve-hooks.js'
import { runHooks, type RunHooksOptions } from '../../hooks-runner/run-hooks.js'
import type { HookEventName } from '../../hooks-runner/events.js'

const dirs: string[] = []
afterAll(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
})

/** A temp directory removed after the test file. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'modloop-hooks-'))
  dirs.push(dir)
  return dir
}

/** Writes an executable script (`#!/bin/sh` unless the body has its own shebang) and returns its path. */
export async function script(dir: string, name: string, body: string): Promise<string> {
  const path = join(dir, name)
  await writeFile(path, body.startsWith('#!') ? body : `#!/bin/sh\n${body}\n`)
  await chmod(path, 0o755)
  return path
}

export const projectSource = (file = '/project/.claude/settings.json'): HookSource =>
  ({ kind: 'project', file, label: 'Project Settings', dedupClass: 'settings' })

/** One `hooks` object as if read from a project settings file. */
export function configOf(hooks: unknown, source = projectSource()) {
  const resolved = resolveHooks([{ source, hooks }])
  if (resolved.errors.length) throw resolved.errors[0]
  return resolved.config
}

/** A single matcher group for one event. */
export function group(event: HookEventName, handlers: object[], extra: { matcher?: string; sequential?: boolean } = {}) {
  return { [event]: [{ ...extra, hooks: handlers }] }
}

export const cmd = (command: string, more: object = {}) => ({ type: 'command', command, ...more })

export function fire(event: HookEventName, input: Record<string, unknown>, hooks: unknown, options: Partial<RunHooksOptions> = {}) {
  return runHooks(event, { session_id: 's1', cwd: process.cwd(), ...input }, {
    config: configOf(hooks), projectDir: process.cwd(), killGraceMs: 200, ...options,
  })
}

export const preToolUse = (command = 'ls', tool = 'Bash') => ({ tool_name: tool, tool_input: { command }, tool_use_id: 'toolu_1' })

/** A shell snippet printing `value` as JSON on stdout. */
export const json = (value: unknown) => `printf '%s\\n' '${JSON.stringify(value).replace(/'/g, `'\\''`)}'`

/** Polls until `check` passes or the time is up. */
export async function eventually(check: () => boolean, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (check()) return true
    await new Promise((r) => setTimeout(r, 25))
  }
  return check()
}

export async function write(path: string, value: unknown): Promise<void> {
  await writeFile(path, typeof value === 'string' ? value : JSON.stringify(value))
}
