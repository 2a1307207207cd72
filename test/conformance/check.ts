import { mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect } from 'vitest'
import { catalog, EVENT_NAMES, type EventName } from '../../core/events/catalog.js'
import { checkPayload } from '../../core/events/schemas.js'

/**
 * What the conformance tests share: a project whose config adds the recording mod to the default
 * distribution, and the checks every recorded run must pass.
 */

const RECORDER = fileURLToPath(new URL('./recorder.ts', import.meta.url))
export interface Recorded { event: EventName; e: Record<string, unknown> }

/** A project (removed by `remove`) recording its events to `out`; `config` joins its modloop config. */
export async function recordingProject(config: Record<string, unknown> = {}, recorder: { ask?: boolean } = {}): Promise<{ dir: string; out: string; read: () => Promise<Recorded[]> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-conformance-')))
  const out = join(dir, 'events.jsonl')
  await writeFile(join(dir, 'modloop.config.json'), JSON.stringify({ extends: 'modloop', mods: [[RECORDER, { out, ...recorder }]], ...config }))
  await writeFile(join(dir, 'notes.txt'), 'The notes say hello.\n')
  const read = async () => (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Recorded)
  return { dir, out, read }
}

/** A script: the model reads notes.txt, then answers. */
export const readNotes = (dir: string) => [
  { reply: [{ text: 'Reading the notes.' }, { tool_use: { name: 'Read', input: { file_path: join(dir, 'notes.txt') } } }] },
  { reply: 'The notes say hello.' },
]

/** Events a session of one turn with a tool call raises in every mode: the catalog's session, turn and tool events. */
export const EVERY_TURN: EventName[] = EVENT_NAMES.filter((name) => catalog[name].fires.in !== 'occasion')

/** Events a subagent's loop with a tool call raises under its agentId. */
export const IN_SUBAGENTS: EventName[] = EVENT_NAMES.filter((name) => (catalog[name].fires as { subagent?: true }).subagent === true)

/** Every payload passes its schema, the session opens and closes the run, and each loop's turn events keep their order. */
export function checkRun(mode: string, events: Recorded[]): void {
  const bad = events.flatMap(({ event, e }) => checkPayload(event, e).map((issue) => `${event} ${issue}`))
  expect(bad, `${mode}: payloads that fail their schema`).toEqual([])
  const names = events.map((r) => r.event)
  expect(names[0], `${mode}: the first event`).toBe('session.start')
  expect(names.at(-1), `${mode}: the last event`).toBe('session.end')
  const main = events.filter((r) => r.e.agentId === undefined).map((r) => r.event)
  for (const name of EVERY_TURN) expect(main, `${mode}: ${name} never fired in the main loop`).toContain(name)
  const loops = byLoop(events)
  for (const [agentId, loop] of loops) checkTurnOrder(agentId === undefined ? mode : `${mode}, subagent ${agentId}`, loop, agentId !== undefined)
  expect(loops.get(undefined)?.some((r) => r.event === 'turn.complete'), `${mode}: turns completed`).toBe(true)
}

/** The events of subagents: each loop raised every event the catalog says a subagent raises. */
export function checkSubagents(mode: string, events: Recorded[]): void {
  const loops = byLoop(events.filter((r) => r.e.agentId !== undefined))
  expect(loops.size, `${mode}: subagent loops`).toBeGreaterThan(0)
  for (const [agentId, loop] of loops) {
    const names = loop.map((r) => r.event)
    for (const name of IN_SUBAGENTS) expect(names, `${mode}: ${name} never fired in subagent ${agentId}`).toContain(name)
    // A subagent's loop runs inside the Agent call that spawned it.
    const first = events.indexOf(loop[0]!)
    expect(events.slice(0, first).some((r) => r.event === 'agent.spawn'), `${mode}: subagent ${agentId} ran before any agent.spawn`).toBe(true)
  }
}

/** Events by the loop that raised them: undefined for the main loop, else the subagent's agentId. */
function byLoop(events: Recorded[]): Map<string | undefined, Recorded[]> {
  const loops = new Map<string | undefined, Recorded[]>()
  for (const r of events) {
    const id = r.e.agentId as string | undefined
    const loop = loops.get(id)
    if (loop) loop.push(r)
    else loops.set(id, [r])
  }
  return loops
}

/**
 * Within one loop: a turn starts (turn.start on the main loop; a subagent's run is one turn with
 * no turn.start, so its first event starts it), then its requests, tool batches and stop checks,
 * then its end; nothing of a turn comes after its turn.complete, and every turn completes.
 */
function checkTurnOrder(where: string, loop: Recorded[], subagent: boolean): void {
  const started = new Set<unknown>()
  const completed = new Set<unknown>()
  for (const { event, e } of loop) {
    if (e.turnId === undefined) continue
    if (event === 'turn.start' || (subagent && !started.has(e.turnId))) started.add(e.turnId)
    if (event === 'turn.request' || event === 'turn.step' || event === 'turn.overflow' || event === 'turn.stop' || event === 'tool.batch') {
      expect(started.has(e.turnId), `${where}: ${event} outside a started turn`).toBe(true)
      expect(completed.has(e.turnId), `${where}: ${event} after its turn completed`).toBe(false)
    }
    if (event === 'turn.complete') {
      expect(completed.has(e.turnId), `${where}: a turn completed twice`).toBe(false)
      completed.add(e.turnId)
    }
  }
  expect([...started].filter((t) => !completed.has(t)), `${where}: turns that never completed`).toEqual([])
}
