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
  const refuse = (field: string, why: string): never => {
    throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.model.complete${why}`, { mod, field })
  }
  const given = (v: unknown) => (typeof v === 'string' && v !== '') || (Array.isArray(v) && v.length > 0)
  if (!given(req?.prompt)) refuse('prompt', ' needs { prompt }, a text that is not empty or an array of { text, cache? } blocks')
  if (req.system !== undefined && typeof req.system !== 'string' && !Array.isArray(req.system)) refuse('system', `'s system must be a text or an array of { text, cache? } blocks`)
  checkBlocks(req, refuse)
  if (req.maxTokens !== undefined && !(Number.isInteger(req.maxTokens) && req.maxTokens >= 1)) {
    refuse('maxTokens', `'s maxTokens must be a whole number of tokens from 1, got ${String(req.maxTokens)}`)
  }
  if (req.effort !== undefined && !EFFORT_LEVELS.includes(req.effort)) refuse('effort', `'s effort must be one of ${EFFORT_LEVELS.join(', ')}, got ${String(req.effort)}`)
  if (req.timeoutMs !== undefined && !(Number.isInteger(req.timeoutMs) && req.timeoutMs >= 1 && req.timeoutMs <= MAX_TIMEOUT_MS)) {
    refuse('timeoutMs', `'s timeoutMs must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${String(req.timeoutMs)}`)
  }
}

/** The Messages API refuses a request with more cache breakpoints than this. */
const MAX_CACHE_MARKS = 4

/**
 * Blocks of `system` and `prompt` (counted in the order the API reads them): each a text that is
 * not empty (the API refuses an empty text block), `cache` a boolean. A block in the API's own
 * shape (`cache_control`) is refused: the mark's lifetime is modloop's to set, as the prompt-cache
 * mod sets it, and a 1-hour mark after a 5-minute one would be refused by the API.
 */
function checkBlocks(req: CompleteRequest, refuse: (field: string, why: string) => never): void {
  let marks = 0
  for (const field of ['system', 'prompt'] as const) {
    const blocks = req[field]
    if (!Array.isArray(blocks)) continue
    blocks.forEach((b: unknown, i) => {
      const at = `${field}[${i}]`
      const block = b as { text?: unknown; cache?: unknown }
      if (typeof b !== 'object' || b === null || typeof block.text !== 'string' || block.text === '') refuse(at, `'s ${at} must be a block { text, cache? } whose text is not empty`)
      if ('cache_control' in block) refuse(`${at}.cache_control`, `'s ${at} carries cache_control: mark a cache breakpoint with cache: true instead`)
      if (block.cache !== undefined && typeof block.cache !== 'boolean') refuse(`${at}.cache`, `'s ${at}.cache must be true or false, got ${String(block.cache)}`)
      if (block.cache === true && ++marks > MAX_CACHE_MARKS) refuse(`${at}.cache`, `'s ${at} is block ${marks} marked cache: the API takes at most ${MAX_CACHE_MARKS} cache breakpoints in a request`)
    })
  }
}
