import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, vi } from 'vitest'
import type { QueryOptions } from '../../runtime/options.js'
import shellHooks from '../../mods/shell-hooks/index.js'
import { withOptions } from '../helpers/with-options.js'
import { runScript, toolsMod } from '../loop/helpers.js'

/** A sandbox: `project` (the cwd, holding .claude/settings.json), `home` (never the real one), `out` for dumps. */
export interface Box { root: string; project: string; home: string; out: string; store: string; remove(): Promise<void> }

export async function makeBox(): Promise<Box> {
  const root = await mkdtemp(join(tmpdir(), 'modloop-shell-hooks-'))
  const box = { root, project: join(root, 'project'), home: join(root, 'home'), out: join(root, 'out'), store: join(root, 'modloop-home', 'trusted.json') }
  for (const d of [join(box.project, '.claude'), join(box.home, '.claude'), box.out]) await mkdir(d, { recursive: true })
  await writeFile(join(root, 'dump.sh'), 'cat >> "$1/$2.jsonl"; echo >> "$1/$2.jsonl"\n')
  return { ...box, remove: () => rm(root, { recursive: true, force: true }) }
}

/**
 * A fresh box for each test of the file, with HOME, CLAUDE_CONFIG_DIR and MODLOOP_HOME pointing
 * into it: the CLI finds ~/.claude through the OS home, and nothing here may reach the real one.
 */
export function boxPerTest(set: (box: Box) => void): void {
  let box: Box | undefined
  beforeEach(async () => {
    box = await makeBox()
    set(box)
    vi.stubEnv('HOME', box.home)
    vi.stubEnv('CLAUDE_CONFIG_DIR', '')
    vi.stubEnv('MODLOOP_HOME', join(box.root, 'modloop-home'))
  })
  afterEach(async () => {
    vi.unstubAllEnvs()
    await box?.remove()
  })
}

/** `sh <box>/dump.sh <out> <Event>`: appends the stdin JSON of each firing as one line. */
export const dump = (box: Box, event: string) => `sh ${join(box.root, 'dump.sh')} ${box.out} ${event}`

export async function dumped(box: Box, event: string): Promise<Record<string, any>[]> {
  const text = await readFile(join(box.out, `${event}.jsonl`), 'utf8').catch(() => '')
  return text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l))
}

export type Hooks = Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]>
export const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra })

export async function writeSettings(box: Box, hooks: Hooks, file = join(box.project, '.claude', 'settings.json'), extra: Record<string, unknown> = {}): Promise<void> {
  await writeFile(file, JSON.stringify({ hooks, ...extra }, null, 2))
}

/** A script file in the sandbox, for hooks that need more than one line. */
export async function script(box: Box, name: string, body: string): Promise<string> {
  const file = join(box.root, name)
  await writeFile(file, body)
  return file
}

/** The mod with the sandbox's home and no managed settings. */
export const hooksMod = (box: Box) => withOptions(shellHooks, { home: box.home, managedDir: false, trustStore: box.store })

export function run(box: Box, steps: unknown, prompt = 'go', options: QueryOptions = {}) {
  return runScript(steps, prompt, { cwd: box.project, ...options, mods: [toolsMod(), hooksMod(box), ...(options.mods ?? [])] })
}

/** Every text the model was sent in one request's last user message. */
export function lastUserTexts(body: any): string[] {
  const last = body.messages.at(-1)
  return (Array.isArray(last.content) ? last.content : [{ type: 'text', text: last.content }]).flatMap((b: any) =>
    b.type === 'text' ? [b.text] : b.type === 'tool_result' ? [typeof b.content === 'string' ? b.content : JSON.stringify(b.content)] : [])
}

export { withOptions } from '../helpers/with-options.js'

/** The `system` informational notices of a run. */
export const notices = (messages: readonly { type: string; subtype?: string }[]) =>
  messages.filter((m) => m.type === 'system' && m.subtype === 'informational').map((m) => String((m as { content?: unknown }).content))

/** The input fields every event carries (spec §2.1), for exact-field assertions. */
/** The common fields of an event before any prompt (at session start). */
export const SESSION_COMMON = ['session_id', 'transcript_path', 'cwd', 'permission_mode', 'hook_event_name']
/** The common fields of every event a user prompt causes: they carry that prompt's id. */
export const COMMON = [...SESSION_COMMON, 'prompt_id']
/** The common fields of an event fired in a tool-use context, `effort` among them: the model's level, asked for or its default (spec §2.1). */
export const TOOL_COMMON = [...COMMON, 'effort']
export const keys = (o: Record<string, unknown>) => Object.keys(o).sort()
/** A hook command line that prints `o` as its JSON output. */
export const json = (o: unknown) => `printf '%s' '${JSON.stringify(o)}'`
