import type { App } from './app.js'
import type { Paint } from './color.js'
import type { MessageView } from './message-view.js'
import { describeError } from '../../core/errors.js'

/** Project items that run code of the folder's own (hooks, MCP servers), new or changed since approved. */
export interface ApprovalAsk {
  /** What they are, one and many: `project hook`, `MCP server`. */
  noun: [one: string, many: string]
  /** The article the question starts with for one of them: `A` unless said. */
  article?: string
  /** Where they come from, as the question names it: `of this folder`, `of .mcp.json`. */
  from: string
  rows: string[]
  /** Why approval matters, one line under the rows. */
  warning: string
  /** What "yes" lets them do: `run`, `start`. */
  verb: string
  fingerprints: string[]
  /** Fingerprints declined in this terminal run: not asked about again until it ends. */
  declined: Set<string>
  approve(fingerprints: string[]): Promise<void>
  store: string
  /** Where the approval is recorded, in the line that confirms it: `for <cwd>`. */
  approvedFor: string
  /** What stays of them when the approval could not be saved. */
  keptOff: string
}

/**
 * Asks once about new or changed project items before the session starts: approving records their
 * fingerprints (the next start does not ask), declining starts the session without them.
 */
export async function askApproval(app: App, view: MessageView, paint: Paint, ask: ApprovalAsk): Promise<void> {
  const n = ask.fingerprints.length
  const [one, many] = ask.noun
  const { value } = await app.choose([
    `${n === 1 ? `${ask.article ?? 'A'} ${one}` : `${n} ${many}`} ${ask.from}, new or changed, not approved yet:`,
    ...ask.rows,
    ask.warning,
  ], [
    { label: n === 1 ? `Yes, ${ask.verb} it (asked again if it changes)` : `Yes, ${ask.verb} them (asked again if they change)`, value: true },
    { label: n === 1 ? 'No, start without it' : 'No, start without them', value: false },
  ], false)
  if (!value) {
    for (const f of ask.fingerprints) ask.declined.add(f)
    void view.print(paint.yellow(`Not approved: this session runs without ${n === 1 ? 'it' : 'them'}; the next start asks again.`))
    return
  }
  try {
    await ask.approve(ask.fingerprints)
    void view.print(paint.dim(`Approved ${n} ${n === 1 ? one : many} ${ask.approvedFor}.`))
  } catch (err) {
    void view.print(paint.red(`the approval could not be saved in ${ask.store}: ${describeError(err)}; ${ask.keptOff}`))
  }
}
