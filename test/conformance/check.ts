import { mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect } from 'vitest'
import type { EventName } from '../../core/events/catalog.js'
import { checkPayload } from '../../core/events/schemas.js'

/**
 * What the conformance tests share: a project whose config adds the recording mod to the default
 * distribution, and the checks every recorded run must pass.
 */

const RECORDER = fileURLToPath(new URL('./recorder.ts', import.meta.url))
export interface Recorded { event: EventName; e: Record<string, unknown> }

/** A project (removed by `remove`) recording its events to `out`; `config` joins its modloop config. */
export async function recordingProject(config: Record<string, unknown> = {}): Promise<{ dir: string; out: string; read: () => Promise<Recorded[]> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-conformance-')))
  const out = join(dir, 'events.jsonl')
  await writeFile(join(dir, 'modloop.config.json'), JSON.stringify({ extends: 'modloop', mods: [[RECORDER, { out }]], ...config }))
  await writeFile(join(dir, 'notes.txt'), 'The notes say hello.\n')
  const read = async () => (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Recorded)
  return { dir, out, read }
}

/** A script: the model reads notes.txt, then answers. */
export const readNotes = (dir: string) => [
  { reply: [{ text: 'Reading the notes.' }, { tool_use: { name: 'Read', input: { file_path: join(dir, 'notes.txt') } } }] },
  { reply: 'The notes say hello.' },
]

/** Events a plain turn with one tool call raises, whatever the mode. */
const EVERY_TURN: EventName[] = [
  'session.start', 'prompt.submit', 'prompt.section', 'prompt.compose', 'turn.start', 'turn.step', 'tool.describe',
  'tool.check', 'tool.call', 'tool.batch', 'turn.stop', 'turn.complete', 'session.message', 'message.display', 'session.end',
]

/** Every payload passes its schema, the session opens and closes the run, and turn events keep their order. */
export function checkRun(mode: string, events: Recorded[]): void {
  const bad = events.flatMap(({ event, e }) => checkPayload(event, e).map((issue) => `${event} ${issue}`))
  expect(bad, `${mode}: payloads that fail their schema`).toEqual([])
  const names = events.map((r) => r.event)
  expect(names[0], `${mode}: the first event`).toBe('session.start')
  expect(names.at(-1), `${mode}: the last event`).toBe('session.end')
  for (const name of EVERY_TURN) expect(names, `${mode}: ${name} never fired`).toContain(name)
  // Within a turn: start, then its requests, then its end; each step's turnId is a started turn's.
  const started = new Set<unknown>()
  const completed = new Set<unknown>()
  for (const { event, e } of events) {
    if (e.agentId !== undefined) continue
    if (event === 'turn.start') started.add(e.turnId)
    if (event === 'turn.step' || event === 'turn.stop') {
      expect(started.has(e.turnId), `${mode}: ${event} outside a started turn`).toBe(true)
      expect(completed.has(e.turnId), `${mode}: ${event} after its turn completed`).toBe(false)
    }
    if (event === 'turn.complete') completed.add(e.turnId)
  }
  expect(completed.size, `${mode}: turns completed`).toBeGreaterThan(0)
}
