import type { SessionCompactInput, SessionCompactResult, SessionMessage } from '../../core/events/types.js'
import { reminder } from '../../core/loop/attach.js'
import type { ModApi } from '../../core/mod/api.js'
import { memoryInstructions } from './memory-instructions.js'
import { fileTexts, memoryText, skillTexts, todoText, type ReattachLimits } from './reattach.js'
import { blocksOf, readPaths, renderConversation, tailStart, type RenderLimits } from './render.js'

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

/** What both summary requests ask for: the sections, what the request adds (`more`), then the caller's extra instructions. */
function asked(lead: string, instructions: string | undefined, more: string[] = []): string[] {
  return [lead, SECTIONS, ...more, ...(instructions ? ['', `Additional instructions for this summary: ${instructions}`] : [])]
}

/** The instruction after the conversation itself (a fork); `kept`: the messages that stay word for word after the summary. */
function forkPrompt(kept: number, instructions: string | undefined): string {
  const tail = kept === 0 ? [] : ['', kept === 1
    ? 'The last message above stays in the new context word for word, after your summary: summarize everything before it in full, and it only as far as the summary needs to lead into it.'
    : `The last ${kept} messages above stay in the new context word for word, after your summary: summarize everything before them in full, and them only as far as the summary needs to lead into them.`]
  return [
    'Stop the work here and write a summary of this conversation, so that it can go on in a fresh context window that holds only your summary.',
    'Answer in text only and call no tool: no tool call will run, and the summary is your whole answer.',
    '',
    ...asked('Write a detailed summary with these sections:', instructions, tail),
  ].join('\n')
}

function summaryPrompt(conversation: string, instructions: string | undefined): string {
  return [
    'Here is the conversation so far:',
    '<conversation>', conversation, '</conversation>',
    '',
    ...asked('Write a detailed summary of it with these sections:', instructions),
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

type Answer = { isAnswered: true; text: string } | { isAnswered: false; reason: string; status?: number | null; error?: string }

/**
 * The default compaction: the model summarizes everything but a recent tail that fits
 * `keepRecentTokens`; the new conversation is one user message (the summary, then memory, the
 * task list and recently read files, re-read now) followed by that tail.
 */
export async function summarize($: ModApi, e: SessionCompactInput, o: SummaryOptions): Promise<SessionCompactResult> {
  const messages = e.messages
  const cut = tailStart(messages, o.keepRecentTokens)
  const head = cut === undefined ? messages : messages.slice(0, cut)
  const tail = cut === undefined ? [] : messages.slice(cut)
  const instructions = [await memoryInstructions($), e.instructions].filter(Boolean).join('\n\n') || undefined
  const r = await forkedSummary($, e, o, tail.length, instructions) ?? await renderedSummary($, o, head, instructions)
  if (!r.isAnswered) {
    const why = r.reason === 'api-error' ? `the summary request failed (${r.status ?? 'no status'} ${r.error ?? ''})`.replace(/ \)$/, ')') : `the summary request ended: ${r.reason}`
    return { skip: `compaction failed: ${why}`, isFailed: true }
  }
  const shownInTail = new Set(readPaths(tail))
  const extras = [
    await memoryText($, o),
    ...(e.agentId === undefined ? skillTexts($, tailText(tail)) : []),
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

/**
 * The summary asked after the conversation itself, as the loop sends it (spec loop-and-sdk §3.9):
 * the API reads all of it but the instruction from the prompt cache, where a rendering of it
 * would be read in full at the input price. Only the main conversation forks, on its own model;
 * undefined when this one cannot, or when the API refused the fork (too long, as when the
 * compaction answers an overflow), so the rendered summary is asked instead.
 */
async function forkedSummary($: ModApi, e: SessionCompactInput, o: SummaryOptions, kept: number, instructions: string | undefined): Promise<Answer | undefined> {
  if (e.agentId !== undefined || (o.model !== undefined && o.model !== $.session.model())) return undefined
  const fork = $.model.fork as (req: { prompt: string; maxTokens?: number }) => Promise<Answer>
  const r = await fork({ prompt: forkPrompt(kept, instructions), maxTokens: o.maxTokens })
  if (!r.isAnswered && (r.reason === 'nothing-to-fork' || (r.reason === 'api-error' && r.status === 400))) return undefined
  return r
}

/**
 * The summary of the conversation rendered as text (render.ts), asked in a request of its own:
 * for a subagent's conversation, another summary model, or one the API refused to fork. Refused
 * as too long, it is asked once more over a quarter of the text.
 */
async function renderedSummary($: ModApi, o: SummaryOptions, head: readonly SessionMessage[], instructions: string | undefined): Promise<Answer> {
  const complete = $.model.complete as (req: { model?: string; prompt: string; system?: string; maxTokens?: number }) => Promise<Answer>
  const model = o.model ?? ($.session.model() as string)
  const r = await complete({ model, system: SYSTEM, maxTokens: o.maxTokens, prompt: summaryPrompt(renderConversation(head, o.render), instructions) })
  if (r.isAnswered || r.status !== 400) return r
  const smaller = { ...o.render, totalChars: Math.floor(o.render.totalChars / 4) }
  return complete({ model, system: SYSTEM, maxTokens: o.maxTokens, prompt: summaryPrompt(renderConversation(head, smaller), instructions) })
}

/** The text blocks of the kept tail, for what it already shows. */
function tailText(tail: readonly SessionMessage[]): string {
  return tail.flatMap((m) => blocksOf(m).filter((b) => b.type === 'text').map((b) => String(b.text))).join('\n')
}
