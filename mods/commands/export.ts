import { writeFile } from 'node:fs/promises'
import { extname, resolve } from 'node:path'
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { ModApi } from '../../core/mod/api.js'
import { describeError } from '../../core/errors.js'

// How much of a tool's result the export shows: enough to follow the conversation, not the whole output.
const RESULT_LINES = 5
const SUMMARY_CHARS = 120

type Block = { type: string; [field: string]: unknown }

/**
 * `/export [file]`: the conversation as plain text, written to `file` (relative to the session's
 * folder; `.txt` added when the name has no extension). Claude Code's terminal asks where to put it
 * when no name is given; with no one to ask, it goes to a file named for the time and the first
 * prompt in the session's folder. The text is not printed: it would come back into the history as
 * the command's output.
 */
export async function exportCommand($: ModApi, args: string, now: Date): Promise<string> {
  const messages = $.session.messages() as MessageParam[]
  const text = conversationText(messages)
  if (text === '') return 'Nothing to export: the conversation is empty.'
  const typed = args.trim()
  const name = typed === '' ? defaultName(now, firstPrompt(messages)) : extname(typed) === '' ? `${typed}.txt` : typed
  const path = resolve($.session.cwd() as string, name)
  try {
    await writeFile(path, text)
  } catch (err) {
    return `Failed to export the conversation to ${path}: ${describeError(err)}`
  }
  return `Conversation exported to: ${path}`
}

/** The conversation as a person read it: prompts, answers, each tool call and the start of its result. */
export function conversationText(messages: readonly MessageParam[]): string {
  const parts: string[] = []
  for (const m of messages) {
    for (const block of blocksOf(m.content)) {
      const line = m.role === 'user' ? userBlock(block) : assistantBlock(block)
      if (line !== undefined) parts.push(line)
    }
  }
  return parts.length === 0 ? '' : `${parts.join('\n\n')}\n`
}

function blocksOf(content: MessageParam['content']): Block[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : (content as unknown as Block[])
}

function userBlock(block: Block): string | undefined {
  if (block.type === 'tool_result') return resultLines(block)
  if (block.type === 'image') return '> [image]'
  if (block.type === 'document') return '> [document]'
  if (block.type !== 'text' || typeof block.text !== 'string') return undefined
  const text = block.text.trim()
  // What the runtime adds beside a prompt (reminders, a local command's caveat) is not what was typed.
  if (text === '' || text.startsWith('<system-reminder>') || text.startsWith('<local-command-caveat>')) return undefined
  const stdout = /^<local-command-stdout>([\s\S]*)<\/local-command-stdout>$/.exec(text)
  if (stdout) return indent(stdout[1]!.trim(), '  ')
  const command = typedCommand(text)
  if (command !== undefined) return `> ${command}`
  return indent(text, '> ', '  ')
}

function assistantBlock(block: Block): string | undefined {
  if (block.type === 'text' && typeof block.text === 'string' && block.text.trim() !== '') return block.text.trim()
  if (block.type === 'tool_use' || block.type === 'server_tool_use') return `* ${String(block.name)}(${summary(block.input)})`
  return undefined
}

/** A command as typed, from either header the history keeps: a prompt command's or a local command's record. */
function typedCommand(text: string): string | undefined {
  const name = /<command-name>\/?([^<\s]+)<\/command-name>/.exec(text)?.[1]
  if (!name || !/^(<command-message>|<command-name>)/.test(text)) return undefined
  const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1]?.trim()
  return `/${name}${args ? ` ${args}` : ''}`
}

/** A tool input in a few words: its main field where it has one (Bash's command, Read's file), else its JSON. */
function summary(input: unknown): string {
  if (!input || typeof input !== 'object') return ''
  const o = input as Record<string, unknown>
  const main = ['command', 'file_path', 'notebook_path', 'pattern', 'url', 'query', 'description', 'skill', 'prompt'].find((k) => typeof o[k] === 'string')
  const text = main ? (o[main] as string) : JSON.stringify(o)
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > SUMMARY_CHARS ? `${line.slice(0, SUMMARY_CHARS - 3)}...` : line
}

function resultLines(block: Block): string {
  const content = block.content
  const text = typeof content === 'string' ? content
    : Array.isArray(content) ? (content as Block[]).map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : `[${b.type}]`)).join('\n') : ''
  const lines = text.trimEnd().split('\n')
  const shown = lines.slice(0, RESULT_LINES)
  if (lines.length > RESULT_LINES) shown.push(`... (${lines.length - RESULT_LINES} more lines)`)
  const head = block.is_error === true ? '  -> Error: ' : '  -> '
  return indent(shown.join('\n') || '(no output)', head, '     ')
}

function indent(text: string, first: string, rest = first): string {
  return text.split('\n').map((line, i) => `${i === 0 ? first : rest}${line}`.trimEnd()).join('\n')
}

function firstPrompt(messages: readonly MessageParam[]): string {
  for (const m of messages) {
    if (m.role !== 'user') continue
    for (const block of blocksOf(m.content)) {
      const line = userBlock(block)
      if (line?.startsWith('> ')) return line.slice(2).split('\n')[0]!
    }
  }
  return ''
}

/** `2025-01-31-142233-fix-the-parser.txt`: when, and what the conversation began with. */
function defaultName(now: Date, prompt: string): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  const stamp = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`
  const slug = prompt.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40).replace(/-+$/, '')
  return `${stamp}${slug ? `-${slug}` : ''}.txt`
}
