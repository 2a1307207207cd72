import { appendFileSync } from 'node:fs'
import { catalog, defineMod, EVENT_NAMES, STAGE, type EventName } from 'modloop'
import { z } from 'zod'

/** JSON with cycles cut and functions dropped: payloads are recorded as a handler receives them. */
function serialize(event: EventName, e: unknown): string {
  const seen = new WeakSet<object>()
  return JSON.stringify({ event, e }, (_key, value: unknown) => {
    if (typeof value === 'function' || typeof value === 'bigint') return undefined
    if (typeof value === 'object' && value !== null) {
      if (seen.has(value)) return '[cycle]'
      seen.add(value)
    }
    return value
  })
}

// Outside every other mod's handler, so an event another mod answers is still seen.
const OUTERMOST = { stage: STAGE.guard - 1 }

/**
 * Records every catalog event this process raises, with its payload, as JSON lines in `out`. It
 * observes only: each handler passes `e` on unchanged, so the session runs as it would without it.
 */
export default defineMod({
  name: 'event-recorder',
  options: z.object({ out: z.string(), ask: z.boolean().default(false) }),
  register(on, { out, ask }) {
    const record = (event: EventName, e: unknown) => appendFileSync(out, `${serialize(event, e)}\n`)
    // With `ask`, the first turn asks the person a question: a tool.call of AskUserQuestion, which no one answers headless.
    let asked = !ask
    for (const event of EVENT_NAMES) {
      if ((catalog[event] as { stream?: true }).stream) {
        on(event as 'turn.step', async function* (_$, e, next) {
          record(event, e)
          return yield* next(e)
        }, OUTERMOST)
      } else {
        on(event as 'session.start', async ($, e, next) => {
          record(event, e)
          if (event === 'turn.start' && !asked) {
            asked = true
            await $.ui.ask('Record this run?', ['yes', 'no']).catch(() => undefined)
          }
          return next(e)
        }, OUTERMOST)
      }
    }
  },
})
