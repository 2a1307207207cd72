import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll } from 'vitest'
import type { FakeRequest } from '../helpers/fake-anthropic.js'

const dirs: string[] = []
afterAll(() => Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true }))))

export interface HookProject {
  cwd: string
  /** The project's `.claude/settings.json`. */
  settings: string
  /** A file of the project's `hooks/` folder. */
  path(name: string): string
}

/**
 * A project folder, removed after the test file, with executable hook scripts in `hooks/` (sh
 * unless a script starts with its own shebang), `.claude/settings.json` holding `hooks`, and
 * other files under its root (`.claude/commands/x.md`, …).
 */
export async function hookProject(scripts: Record<string, string>, hooks: (path: (name: string) => string) => Record<string, unknown>, files: Record<string, string> = {}): Promise<HookProject> {
  const cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-faults-hooks-')))
  dirs.push(cwd)
  const path = (name: string) => join(cwd, 'hooks', name)
  const settings = join(cwd, '.claude', 'settings.json')
  await mkdir(join(cwd, 'hooks'))
  await mkdir(join(cwd, '.claude'))
  for (const [name, body] of Object.entries(scripts)) {
    await writeFile(path(name), body.startsWith('#!') ? body : `#!/bin/sh\n${body}\n`)
    await chmod(path(name), 0o755)
  }
  for (const [name, body] of Object.entries(files)) {
    await mkdir(dirname(join(cwd, name)), { recursive: true })
    await writeFile(join(cwd, name), body)
  }
  await writeFile(settings, JSON.stringify({ hooks: hooks(path) }))
  return { cwd, settings, path }
}

type Block = { type: string; id?: string; input?: { command?: unknown }; tool_use_id?: string; content?: unknown; text?: string }
const messagesOf = (request: FakeRequest) => request.body.messages as { role: string; content: string | Block[] }[]
const textOf = (content: unknown): string => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((c: Block) => textOf(c.text ?? c.content ?? '')).join('') : '')

/** The text of each tool_result of a request's last message, by the Bash command (or tool name) it answers. */
export function toolResults(request: FakeRequest): Record<string, string> {
  const messages = messagesOf(request)
  const uses = new Map<string, string>()
  for (const m of messages) for (const b of Array.isArray(m.content) ? m.content : []) if (b.type === 'tool_use') uses.set(b.id!, String(b.input?.command ?? b.id))
  const last = messages.at(-1)!.content
  return Object.fromEntries((Array.isArray(last) ? last : []).filter((b) => b.type === 'tool_result').map((b) => [uses.get(b.tool_use_id!), textOf(b.content)]))
}

/** The text of a request's last user message. */
export function lastUserText(request: FakeRequest): string {
  return textOf(messagesOf(request).findLast((m) => m.role === 'user')?.content)
}
