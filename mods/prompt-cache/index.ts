import { z } from 'zod'
import { STAGE } from '../../core/bus/types.js'
import { defineMod } from '../../core/mod/define.js'
import { cacheTtl, cachingDisabled } from './env.js'
import { placeBreakpoints } from './place.js'
import { settleGivenMarks } from './given.js'
import { builtinOptions } from '../_shared/builtin-options.js'

const options = builtinOptions('prompt-cache', () => z.object({
  /** Off: the mod marks nothing (as `DISABLE_PROMPT_CACHING=1` does). */
  enabled: z.boolean().default(true),
  /** How long a cache entry lives unread: `5m` (writes at 1.25× the input price) or `1h` (2×). */
  ttl: z.enum(['5m', '1h']).default('5m'),
}))

/**
 * Prompt caching: every request of the main loop and of subagents gets cache breakpoints
 * (place.ts says where), so each round reads the previous round's prefix from the cache, and so
 * does a `$.model.fork` (compaction's summary), which sends that prefix again.
 * `$.model.complete` requests get no breakpoint of the mod's: a one-off prompt shares no prefix
 * with the loop, and a write nobody reads costs more than no write. The breakpoints its caller
 * asked for (`cache: true` blocks) follow the mod's settings: dropped while caching is off, and
 * given its TTL (given.ts).
 */
export default defineMod({
  name: 'prompt-cache',
  description: 'Cache breakpoints on model requests (prompt caching)',
  options,
  register(on, opts) {
    if (!opts.enabled) return
    // Innermost: the breakpoints go on the request as every other handler left it.
    on('model.request', ($, e, next) => {
      const env = (name: string) => $.env.get(name)
      if (e.purpose === 'complete') return next({ ...e, request: settleGivenMarks(e.request, cacheTtl(env, opts.ttl), cachingDisabled(env, e.request.model)) })
      if (cachingDisabled(env, e.request.model)) return next(e)
      return next({ ...e, request: placeBreakpoints(e.request, e.sections, cacheTtl(env, opts.ttl)) })
    }, { stage: STAGE.last })
  },
})
