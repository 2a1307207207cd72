import type { ImageBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { CommandRunResult, PromptOrigin } from '../events/types.js'
import type { Session } from './session.js'
import { surfaceFields } from './session-options.js'
import { commandHeader } from './command-header.js'

export interface CommandInfo {
  name: string
  description: string
  argumentHint?: string
  mod: string
  /**
   * What the command does, as its mod says: `local` answers without the model (/compact, /cost),
   * `prompt` expands into a prompt, `skill` is a skill run by name (init lists these as `skills`).
   */
  kind?: 'local' | 'prompt' | 'skill'
  /** A command the runtime answers itself beneath every mod (`/reload`): its output. */
  run?: (args: string) => Promise<string>
}

/**
 * `context` goes with a prompt as runtime context (a reminder the model reads after the text);
 * `images` follow its text (an MCP prompt's pictures); `header` says which command the text is
 * the body of (see command-header.ts).
 */
export type Expansion = { kind: 'prompt'; text: string; context?: string[]; images?: ImageBlockParam[]; header?: string } | { kind: 'output'; text: string; command: string; args: string; unrecorded?: true } | { kind: 'deny'; text: string; isError: boolean }

// A slash command is `/name args`; a prompt that merely starts with a path (`/usr/bin/x fails`) is not one.
const COMMAND = /^\/([A-Za-z0-9_:.-]+)(?:\s+([\s\S]*))?$/

/** The command a prompt's text is written as (`/name args` gives `name`), if it is one. */
export function slashCommandName(text: string): string | undefined {
  return COMMAND.exec(text.trim())?.[1]
}

/**
 * Raises `command.run` for a prompt that is a slash command (`ran` gets its answer: a mod's `$.command.run`). Mods serve commands: a handler
 * answers `{prompt}` (the turn goes on with that text behind the command's header, and its `images` and `context` if any), `{output}` (printed, no model call) or
 * `{deny}`. Nothing answering means the command is unknown: headless, the text goes to the model
 * as typed; in an interactive session the answer names close matches.
 */
export async function expandCommand(session: Session, text: string, origin: PromptOrigin, ran?: { resolve(r: CommandRunResult): void }): Promise<Expansion | undefined> {
  const m = COMMAND.exec(text.trim())
  if (!m) return undefined
  const [, command, args = ''] = m as unknown as [string, string, string?]
  // Turned off, every command is unknown: the model gets the text, and is told that nothing ran.
  if (session.options.disableSlashCommands) return { kind: 'prompt', text, context: [notRun(session, command)] }
  const r = await session.host.bus.emit('command.run', { command, args, origin }, async (e) => {
    const own = session.commands.get(e.command)?.run
    return own ? { output: await own(e.args) } : { deny: unknownCommand(session, e.command), unknown: true as const }
  })
  ran?.resolve(r)
  // Headless, an unknown command is an ordinary prompt for the model, as in Claude Code, which is told
  // that nothing ran (else it may answer as if the command had); a person at the keyboard is told
  // instead, with the close matches.
  if ('deny' in r && r.unknown && !surfaceFields(session.options).isInteractive) return { kind: 'prompt', text, context: [notRun(session, command)] }
  if ('deny' in r) return { kind: 'deny', text: r.deny, isError: r.isError !== false }
  if (typeof r.prompt === 'string') return { kind: 'prompt', text: r.prompt, header: commandHeader(command, args), ...(r.images?.length ? { images: r.images } : {}), ...(r.context?.length ? { context: r.context } : {}) }
  return { kind: 'output', text: r.output ?? '', command, args, ...(r.unrecorded === true ? { unrecorded: true as const } : {}) }
}

function notRun(session: Session, name: string): string {
  const known = [...session.commands.keys()].map((c) => `/${c}`)
  const listed = known.length === 0 ? 'This session has no slash commands.' : `The slash commands of this session: ${known.slice(0, 20).join(', ')}${known.length > 20 ? `, and ${known.length - 20} more` : ''}.`
  return [
    `The message starts with /${name}, but this session has no command by that name, so nothing ran. ${listed}`,
    'Take the message as a plain request and do what it asks with the tools you have; if it needs that command, tell the user it is not available here. Do not say or imply that the command ran.',
  ].join('\n')
}

function unknownCommand(session: Session, name: string): string {
  const known = [...session.commands.keys()]
  const close = known.filter((k) => distance(k, name) <= Math.max(2, Math.floor(name.length / 3))).sort((a, b) => distance(a, name) - distance(b, name))
  const hint = close.length > 0 ? ` Did you mean ${close.slice(0, 3).map((c) => `/${c}`).join(', ')}?` : known.length > 0 ? ` Known commands: ${known.map((c) => `/${c}`).join(', ')}.` : ''
  return `Unknown command: /${name}.${hint}`
}

/** Levenshtein distance, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = tmp
    }
  }
  return row[b.length]!
}
