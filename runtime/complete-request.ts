import { ModloopError } from '../core/errors.js'
import { EFFORT_LEVELS } from '../core/model/capabilities.js'
import type { CompleteRequest } from '../core/mod/contracts.js'

// setTimeout's own bound: a longer wait would fire at once.
const MAX_TIMEOUT_MS = 2_147_483_647

/**
 * Refuses a `$.model.complete` request the API would refuse (or, for a cap of 0, answer with
 * nothing), or that asks for what it cannot mean, here where the mod is known: the error names
 * the mod and the field (spec mods §4: it rejects only when the request is not sent).
 */
export function checkComplete(mod: string, req: CompleteRequest): void {
  const refuse = (field: string, why: string) => {
    throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.model.complete${why}`, { mod, field })
  }
  if (typeof req?.prompt !== 'string' || req.prompt === '') refuse('prompt', ' needs { prompt }, a text that is not empty')
  if (req.maxTokens !== undefined && !(Number.isInteger(req.maxTokens) && req.maxTokens >= 1)) {
    refuse('maxTokens', `'s maxTokens must be a whole number of tokens from 1, got ${String(req.maxTokens)}`)
  }
  if (req.effort !== undefined && !EFFORT_LEVELS.includes(req.effort)) refuse('effort', `'s effort must be one of ${EFFORT_LEVELS.join(', ')}, got ${String(req.effort)}`)
  if (req.timeoutMs !== undefined && !(Number.isInteger(req.timeoutMs) && req.timeoutMs >= 1 && req.timeoutMs <= MAX_TIMEOUT_MS)) {
    refuse('timeoutMs', `'s timeoutMs must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${String(req.timeoutMs)}`)
  }
}
