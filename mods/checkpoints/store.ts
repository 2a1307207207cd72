import { nodeCrypto } from '../../core/random.js'
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { onFirstUse } from '../../core/on-first-use.js'

/**
 * One session's file checkpoints, on disk beside its transcript: `<session dir>/checkpoints/`
 * holds `index.jsonl` (append-only: a `turn` line per prompt, a `file` line per file the first
 * time a turn changes it) and `blobs/<sha256>` (each prior content once). A `file` line with
 * `blob: null` means the file did not exist before that turn changed it.
 */
// Built on first use: only a session whose checkpoint index is on disk (resumed, or rewinding) reads it.
const line = onFirstUse(() => {
  const turnLine = z.object({ kind: z.literal('turn'), messageId: z.string().min(1), at: z.string() })
  const fileLine = z.object({ kind: z.literal('file'), messageId: z.string().min(1), path: z.string().min(1), blob: z.string().nullable() })
  return z.discriminatedUnion('kind', [turnLine, fileLine])
})

export interface Turn {
  messageId: string
  /** Each file this turn changed, with its content before the turn's first change (null: absent). */
  files: Map<string, string | null>
}

export class CheckpointStore {
  readonly turns: Turn[] = []
  /** Every file a turn kept so far: each prompt keeps them all again (a Bash command may have changed one since). */
  private readonly tracked = new Set<string>()
  private readonly index: string
  private readonly blobs: string

  constructor(readonly dir: string) {
    this.index = join(dir, 'index.jsonl')
    this.blobs = join(dir, 'blobs')
  }

  /** Reads what an earlier run of this session stored; damaged lines are skipped and reported. */
  load(): string[] {
    if (!existsSync(this.index)) return []
    const warnings: string[] = []
    readFileSync(this.index, 'utf8').split('\n').forEach((text, i) => {
      if (!text.trim()) return
      let parsed: z.infer<ReturnType<typeof line>> | undefined
      try {
        parsed = line().parse(JSON.parse(text))
      } catch {
        warnings.push(`${this.index}: line ${i + 1} is not a checkpoint entry; skipped`)
        return
      }
      if (parsed.kind === 'turn') this.turns.push({ messageId: parsed.messageId, files: new Map() })
      else {
        this.turns.findLast((t) => t.messageId === parsed.messageId)?.files.set(parsed.path, parsed.blob)
        this.tracked.add(parsed.path)
      }
    })
    return warnings
  }

  /** Starts from another session's checkpoints (the one a fork copies), when it kept any. */
  copyFrom(dir: string): void {
    if (existsSync(join(dir, 'index.jsonl'))) cpSync(dir, this.dir, { recursive: true })
  }

  /**
   * A prompt entered: the changes that follow belong to it, until the next one. The files earlier
   * turns changed are kept as they are now, so a rewind to this prompt restores them as they were
   * when it entered, whatever changed them since (as Claude Code's snapshot per prompt does).
   * Answers the files that could not be kept, with why.
   */
  startTurn(messageId: string): { path: string; error: unknown }[] {
    this.turns.push({ messageId, files: new Map() })
    this.append({ kind: 'turn', messageId, at: new Date().toISOString() })
    const failed: { path: string; error: unknown }[] = []
    for (const path of this.tracked) {
      try {
        this.keep(path)
      } catch (error) {
        failed.push({ path, error })
      }
    }
    return failed
  }

  /** Keeps `path`'s content (or its absence) before its first change in the current turn. */
  keep(path: string): void {
    const turn = this.turns.at(-1)
    if (!turn || turn.files.has(path)) return
    let blob: string | null = null
    if (existsSync(path)) {
      const bytes = readFileSync(path)
      blob = nodeCrypto().createHash('sha256').update(bytes).digest('hex')
      const file = join(this.blobs, blob)
      if (!existsSync(file)) {
        mkdirSync(this.blobs, { recursive: true })
        writeFileSync(file, bytes)
      }
    }
    turn.files.set(path, blob)
    this.tracked.add(path)
    this.append({ kind: 'file', messageId: turn.messageId, path, blob })
  }

  read(blob: string): Buffer {
    return readFileSync(join(this.blobs, blob))
  }

  private append(entry: z.infer<typeof line>): void {
    mkdirSync(this.dir, { recursive: true })
    appendFileSync(this.index, `${JSON.stringify(entry)}\n`)
  }
}
