import type { PromptSection } from '../events/types.js'
import type { SystemBlock } from '../model/types.js'
import type { Session } from './session.js'

const INTRO =
  'You are an agent running in modloop. Use the tools you are given to do what the user asks, ' +
  'then answer. When you call several tools that do not depend on each other, call them together.'

const PRESET: [string, string][] = [
  ['intro', 'You are an interactive coding agent running in modloop, helping the user with software engineering work in their project.'],
  ['doing_tasks', 'Do what was asked: read the code before changing it, keep changes small and focused, and run the project\'s checks after changing code. Do not add features, refactors or files nobody asked for.'],
  ['actions', 'Before an action that is hard to undo or reaches outside the project (deleting data, pushing, sending), make sure the user asked for it.'],
  ['tools', 'Prefer the dedicated file tools over shell commands for reading, searching and editing files. Call independent tools in parallel.'],
  ['tone', 'Be concise. Refer to code as file_path:line_number. Use no emojis unless asked.'],
]

/** The Agent SDK's marker between the cacheable and the per-session part of a custom prompt given as a list. */
export const SYSTEM_PROMPT_DYNAMIC_BOUNDARY = '__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__'

/**
 * The named sections core proposes; mods rewrite, drop or add to them through prompt.section and
 * prompt.compose. A custom prompt (a string, a list, or `{type: 'custom'}`) replaces the default;
 * a list gives one section per element (`custom`, `custom_1`, …), the SDK's boundary marker left out.
 */
export function baseSections(session: Session): { name: string; text: string | null }[] {
  const { systemPrompt, appendSystemPrompt } = session.options
  let sections: { name: string; text: string | null }[]
  const custom = typeof systemPrompt === 'string' || Array.isArray(systemPrompt) ? systemPrompt : systemPrompt?.type === 'custom' ? systemPrompt.prompt : undefined
  if (custom !== undefined) {
    const parts = (Array.isArray(custom) ? custom : [custom]).filter((p) => p !== SYSTEM_PROMPT_DYNAMIC_BOUNDARY)
    sections = (parts.length > 0 ? parts : ['']).map((text, i) => ({ name: i === 0 ? 'custom' : `custom_${i}`, text }))
  } else if (typeof systemPrompt === 'object' && !Array.isArray(systemPrompt) && systemPrompt.type === 'preset') {
    sections = PRESET.map(([name, text]) => ({ name, text }))
    if (systemPrompt.append) sections.push({ name: 'append', text: systemPrompt.append })
  } else sections = [{ name: 'intro', text: INTRO }]
  if (appendSystemPrompt) sections.push({ name: 'append_cli', text: appendSystemPrompt })
  return sections
}

/** The system prompt as sent: one text block per section, and the sections they are, index for index. */
export interface ComposedSystem {
  blocks: SystemBlock[]
  sections: { id: string; scope: 'shared' | 'session' }[]
}

/**
 * Renders the system prompt: each section once per session through `prompt.section` (answers
 * are cached, so a stable prompt keeps the prompt cache warm), then the ordered list through
 * `prompt.compose` for every request. Each section is its own text block, so a cache breakpoint
 * can sit between the stable sections and later ones; the blank line that joins two sections
 * ends the earlier block, so the blocks read as the one joined text.
 */
export async function composeSystemPrompt(session: Session, model: string, tools: readonly string[], agentId?: string): Promise<ComposedSystem> {
  const { bus } = session.host
  const sections: PromptSection[] = []
  for (const base of baseSections(session)) {
    const text = await sectionText(session, base)
    if (text !== null && text !== '') sections.push({ id: base.name, text, scope: 'session' })
  }
  const composed = bus.has('prompt.compose')
    ? (await bus.emit('prompt.compose', { model, tools, sections, ...(agentId ? { agentId } : {}) })).sections
    : sections
  const ordered = placeSections(composed)
  return {
    blocks: ordered.map((s, i) => ({ type: 'text', text: i < ordered.length - 1 ? `${s.text}\n\n` : s.text })),
    sections: ordered.map((s) => ({ id: s.id, scope: s.scope === 'shared' ? 'shared' : 'session' })),
  }
}

/**
 * The composed sections in the order they are sent: the shared ones first, and what the caller
 * appends (the preset's `append`, --append-system-prompt) last, after what mods added (the
 * environment, the git status), as the spec places it (loop-and-sdk §4.2); empty ones left out.
 * Placing placed sections again changes nothing.
 */
export function placeSections(composed: readonly PromptSection[]): PromptSection[] {
  const last = (s: PromptSection) => s.id === 'append' || s.id === 'append_cli'
  const placed = [...composed.filter((s) => !last(s)), ...composed.filter(last)]
  return [...placed.filter((s) => s.scope === 'shared'), ...placed.filter((s) => s.scope !== 'shared')].filter((s) => s.text !== '')
}

/** A section's text as prompt.section answered it, asked once per session. */
async function sectionText(session: Session, base: { name: string; text: string | null }): Promise<string | null> {
  let text = session.sectionCache.get(base.name)
  if (text === undefined) {
    text = (await session.host.bus.emit('prompt.section', base)).text
    session.sectionCache.set(base.name, text)
  }
  return text
}

/**
 * The block that says who the model is, as the main loop's prompt opens with it: its `intro`
 * section, as prompt.section answered it. `$.model.complete` puts it before the caller's `system`
 * (spec mods §4). A custom prompt has no intro (its own words replace it), and neither does a
 * session whose mods dropped it.
 */
export async function identityText(session: Session): Promise<string | undefined> {
  const intro = baseSections(session).find((s) => s.name === 'intro')
  return (intro && (await sectionText(session, intro))) || undefined
}
