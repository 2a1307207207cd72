import { contextWindow } from '../../core/model/pricing.js'
import type { PromptCommand } from './definitions.js'

export interface ListingBudget {
  /** Characters of one skill's description (with its when-to-use text). */
  maxDescriptionChars: number
  /** Characters of the whole listing. */
  totalChars: number
}

/**
 * Characters of the whole listing: `SLASH_COMMAND_TOOL_CHAR_BUDGET`, else the mod's option, else
 * 1% of the model's context window at 4 characters a token, as in Claude Code — 8,000 on a 200K
 * window, 40,000 on a 1M one, where a fixed 8,000 would drop the descriptions of skills that fit.
 */
export function listingChars(env: string | undefined, option: number | undefined, model: string): number {
  const set = Number(env?.trim() || undefined)
  if (Number.isInteger(set) && set > 0) return set
  return option ?? Math.floor(contextWindow(model) / 100) * 4
}

/**
 * The skills section of the system prompt: each model-invocable skill with what it is for.
 * Past the budget, the remaining skills are named without descriptions, and past that counted,
 * so a large skill collection never crowds out the rest of the prompt.
 */
export function skillListing(skills: readonly PromptCommand[], budget: ListingBudget): string | undefined {
  const listed = skills.filter((s) => s.modelInvocable)
  if (listed.length === 0) return undefined
  const head = [
    '# Skills',
    'Skills hold instructions for particular kinds of task. When the task at hand matches a skill below, call the Skill tool with its name (and any arguments) first, then follow what it returns.',
  ].join('\n')
  const lines: string[] = []
  let used = head.length
  let omitted = 0
  for (const skill of listed) {
    const about = [skill.description, skill.whenToUse].filter(Boolean).join(' ').replace(/\s+/g, ' ').trim()
    const short = about.length > budget.maxDescriptionChars ? `${about.slice(0, budget.maxDescriptionChars - 3)}...` : about
    const full = `- ${skill.name}: ${short}`
    const bare = `- ${skill.name}`
    // The settings' skillOverrides may ask for the name alone.
    const line = skill.override !== 'name-only' && used + full.length + 1 <= budget.totalChars ? full : used + bare.length + 1 <= budget.totalChars ? bare : undefined
    if (line === undefined) {
      omitted++
      continue
    }
    lines.push(line)
    used += line.length + 1
  }
  if (omitted > 0) lines.push(`(${omitted} more skill${omitted === 1 ? '' : 's'} not listed for space; the Skill tool still runs them by name.)`)
  return [head, ...lines].join('\n')
}
