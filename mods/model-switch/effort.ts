import type { ModApi } from '../../core/mod/api.js'
import { clampEffort, defaultEffort, EFFORT_LEVELS, type EffortLevel } from '../../core/model/capabilities.js'
import { describeError } from '../../core/errors.js'

// What each level trades, in a line, for the person choosing one.
const MEANS: Record<EffortLevel, string> = {
  low: 'fast, direct work with little deliberation',
  medium: 'a balance of speed and care',
  high: 'thorough work, with tests and checks along the way',
  xhigh: 'deeper reasoning than high, short of the maximum (where the model offers it)',
  max: 'the deepest reasoning the model offers; slow and costly, for the hardest problems',
}

const USAGE = `Usage: /effort <${[...EFFORT_LEVELS, 'auto'].join('|')}> (auto: the model's default)`

/**
 * `/effort [level]`: shows the session's effort, or sets it for the requests that follow through
 * `$.config.set`; each request clamps it to its model, and the answer says so when this model
 * takes less. An unknown level is answered, not an error, as Claude Code answers it.
 */
export async function effortCommand($: ModApi, args: string): Promise<string> {
  const level = args.trim().toLowerCase()
  const model = String($.session.model())
  if (level === '') return `${current($, model)}\n${USAGE}`
  if (level !== 'auto' && !(EFFORT_LEVELS as readonly string[]).includes(level)) {
    return `Unknown effort level: ${level}. Options: ${[...EFFORT_LEVELS, 'auto'].join(', ')}`
  }
  try {
    const r = await $.config.set({ key: 'effort', value: level === 'auto' ? null : level })
    if ('deny' in r) return `Effort not set: ${r.deny}`
  } catch (err) {
    return `Effort not set: ${describeError(err)}`
  }
  if (level === 'auto') return `Effort level set to auto for this session: each request is sent the model's default (${model}: ${defaultEffort(model) ?? 'none'})`
  const set = level as EffortLevel
  const sent = clampEffort(model, set)
  const note = sent === set ? '' : `\n${model} ${sent ? `does not take ${set}, so its requests are sent ${sent}` : 'takes no effort level, so its requests are sent none'}`
  return `Set effort level to ${set} for this session: ${MEANS[set]}${note}`
}

function current($: ModApi, model: string): string {
  const rows = $.config.list() as { key: string; value: unknown }[]
  const sent = rows.find((r) => r.key === 'effort')?.value
  if (typeof sent === 'string') return `Effort: ${sent} (${model})`
  const fallback = defaultEffort(model)
  return `Effort: auto, the model's default (${model}: ${fallback ?? 'none, it takes no effort level'})`
}
