import type { SessionCompactInput, SessionCompactResult, SessionMessage } from '../../core/events/types.js'
import { reminder } from '../../core/loop/attach.js'
import type { ModApi } from '../../core/mod/api.js'
import { memoryInstructions } from './memory-instructions.js'
import { fileTexts, memoryText, todoText, type ReattachLimits } from './reattach.js'
import { readPaths, renderConversation, tailStart, type RenderLimits } from './render.js'

export interface SummaryOptions extends ReattachLimits {
  model?: string
  maxTokens: number
  keepRecentTokens: number
  render: RenderLimits
}

const SYSTEM = 'You summarize a coding agent\'s conversation so that the work can go on in a fresh context window. Write only the summary.'

const SECTIONS = [
  '1. Primary request and intent: everything the user asked for, in their words where it matters.',
  '2. Key technical concepts: technologies, conventions and decisions that shape the work.',
  '3. Files and code: each file examined, created or changed, why it matters, and the important snippets.',
  '4. Errors and fixes: what went wrong and how it was fixed, including feedback from the user.',
  '5. Pending tasks: what was asked for and is not done yet.',
  '6. Current work: precisely what was being worked on right before this summary.',
  '7. Next step: the next step in line with the most recent request, if there is one.',
].join('\n')

export const SUMMARY_INTRO = 'This session continues from an earlier conversation that ran out of context. The summary below covers the earlier part of it.'

function summaryPrompt(conversation: string, instructions: string | undefined): string {
  return [
    'Here is the conversation so far:',
    '<conversation>', conversation, '</conversation>',
    '',
    'Write a detailed summary of it with these sections:',
    SECTIONS,
    ...(instructions ? ['', `Additional instructions for this summary: ${instructions}`] : []),
  ].join('\n')
}

/**
 * The summary as the new conversation reads it (Claude Code reads it so too): an `<analysis>` the
 * model drafted first is left out, and a summary it wrapped in `<summary>` tags is taken from
 * inside them — not scratch notes and doubled tags sent with every later request.
 */
function summaryBody(text: string): string {
  const kept = text.replace(/<analysis>[\s\S]*?<\/analysis>/g, '')
  const inner = /<summary>([\s\S]*?)<\/summary>/.exec(kept)?.[1]
  return (inner ?? kept).trim() || text.trim()
}

/**
 * The default compaction: the model summarizes everything but a recent tail that fits
 * `keepRecentTokens`; the new conversation is one user message (the summary, then memory, the
 * task list and recently read files, re-read now) followed by that tail. A summary request
 * refused as too long is tried once more over a quarter of the text.
 */
export async function summarize($: ModApi, e: SessionCompactInput, o: SummaryOptions): Promise<SessionCompactResult> {
  const messages = e.messages
  const cut = tailStart(messages, o.keepRecentTokens)
  const head = cut === undefined ? messages : messages.slice(0, cut)
  const tail = cut === undefined ? [] : messages.slice(cut)
  const complete = $.model.complete as (req: { model?: string; prompt: string; system?: string; maxTokens?: number }) => Promise<
    { isAnswered: true; text: string } | { isAnswered: false; reason: string; status?: number | null; error?: string }
  >
  const model = o.model ?? ($.session.model() as string)
  const instructions = [await memoryInstructions($), e.instructions].filter(Boolean).join('\n\n') || undefined
  let r = await complete({ model, system: SYSTEM, maxTokens: o.maxTokens, prompt: summaryPrompt(renderConversation(head, o.render), instructions) })
  if (!r.isAnswered && r.status === 400) {
    const smaller = { ...o.render, totalChars: Math.floor(o.render.totalChars / 4) }
    r = await complete({ model, system: SYSTEM, maxTokens: o.maxTokens, prompt: summaryPrompt(renderConversation(head, smaller), instructions) })
  }
  if (!r.isAnswered) {
    const why = r.reason === 'api-error' ? `the summary request failed (${r.status ?? 'no status'} ${r.error ?? ''})`.replace(/ \)$/, ')') : `the summary request ended: ${r.reason}`
    return { skip: `compaction failed: ${why}`, isFailed: true }
  }
  const shownInTail = new Set(readPaths(tail))
  const extras = [
    await memoryText($, o),
    todoText($),
    ...(await fileTexts($.session.cwd() as string, readPaths(head), shownInTail, o)),
  ].filter((t): t is string => t !== undefined)
  const continueNote = tail.length === 0 ? '\n\nContinue from where the conversation left off, without asking the user anything further.' : ''
  const summary: SessionMessage = {
    role: 'user',
    content: [
      { type: 'text', text: `${SUMMARY_INTRO}\n\n<summary>\n${summaryBody(r.text)}\n</summary>${continueNote}` },
      ...extras.map((text) => ({ type: 'text', text: reminder(text) })),
    ],
  }
  return { messages: [summary, ...tail], summary: r.text.trim(), ...(e.tokens !== undefined ? { tokensBefore: e.tokens } : {}) }
}
