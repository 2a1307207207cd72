import { mkdtempSync, readFileSync } from 'node:fs'
import { realpath } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { defineMod, type ModDefinition } from '../../core/mod/define.js'
import type { QueryOptions } from '../../runtime/options.js'
import { chainTo, parseTranscript } from '../../mods/transcripts/store/transcript-read.js'
import { rebuildHistory } from '../../mods/transcripts/store/rebuild.js'
import { transcriptPath } from '../../mods/transcripts/store/paths.js'
import type { MessageEntry } from '../../mods/transcripts/store/entry.js'
import transcripts from '../../mods/transcripts/index.js'
import { runScript, toolsMod, type Run } from '../loop/helpers.js'

// Every test file runs in its own process (vitest forks): its sessions go to a home of its own.
process.env.MODLOOP_HOME = mkdtempSync(join(tmpdir(), 'modloop-home-'))

export const home = (): string => process.env.MODLOOP_HOME!

export async function tempCwd(prefix = 'modloop-sessions-'): Promise<string> {
  return realpath(mkdtempSync(join(tmpdir(), prefix)))
}

/** Captures the loop's own history as the session ends, to compare with what a transcript rebuilds. */
export function historySpy(): { mod: ModDefinition; history: () => MessageParam[]; starts: { source: string; sessionId: string; transcriptPath: string }[] } {
  let history: MessageParam[] = []
  const starts: { source: string; sessionId: string; transcriptPath: string }[] = []
  const mod = defineMod({
    name: 'history-spy',
    register(on) {
      on('session.start', ($, e, next) => {
        starts.push({ source: e.source, sessionId: e.sessionId, transcriptPath: e.transcriptPath })
        return next(e)
      })
      on('session.end', ($, e, next) => {
        history = $.session.messages() as MessageParam[]
        return next(e)
      })
    },
  })
  return { mod, history: () => history, starts }
}

/** One prompt through the loop (fake server, real SDK) with the transcripts mod loaded. */
export async function run(script: unknown, prompt: string, cwd: string, options: QueryOptions = {}, extraMods: QueryOptions['mods'] = []): Promise<Run & { sessionId: string; history: MessageParam[]; starts: ReturnType<typeof historySpy>['starts'] }> {
  const spy = historySpy()
  const r = await runScript(script, prompt, { cwd, mods: [toolsMod(), transcripts, spy.mod, ...(extraMods ?? [])], ...options })
  return { ...r, sessionId: r.result?.session_id ?? spy.starts[0]?.sessionId ?? '', history: spy.history(), starts: spy.starts }
}

export function readLines(path: string): Record<string, any>[] {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
}

export function fileOf(cwd: string, sessionId: string): string {
  return transcriptPath(cwd, sessionId)
}

/** The history a transcript file rebuilds to. */
export function rebuilt(path: string, leaf?: string, options: { sidechain?: boolean } = {}): { messages: MessageParam[]; chain: MessageEntry[]; warnings: string[]; repaired: number } {
  const { entries, warnings } = parseTranscript(readFileSync(path, 'utf8'), path)
  const chain = chainTo(entries, leaf, options)
  const r = rebuildHistory(chain)
  return { messages: r.messages, chain, warnings, repaired: r.repaired }
}

/** Every tool_use in `messages` is answered by a tool_result in the next message. */
export function assertAnswered(messages: readonly MessageParam[]): void {
  messages.forEach((m, i) => {
    if (m.role !== 'assistant' || typeof m.content === 'string') return
    const ids = m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []))
    const next = messages[i + 1]
    const answered = new Set(next && typeof next.content !== 'string' ? next.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])) : [])
    for (const id of ids) if (!answered.has(id)) throw new Error(`tool_use ${id} (message ${i}) has no tool_result in the next message`)
  })
}
