import type { Io } from './io.js'

/**
 * Names how the session was started, as Claude Code does, in `CLAUDE_CODE_ENTRYPOINT`: `cli` for
 * the interactive terminal, `sdk-cli` for `-p`. Transcripts record it on every line (a resume
 * picker may hide programmatic sessions), and hooks and tools inherit it. One already set — a
 * wrapper that started this CLI — stands. Only where the CLI owns the process: an embedder's
 * environment is the embedder's.
 */
export function markEntrypoint(io: Io, entrypoint: 'cli' | 'sdk-cli'): void {
  if (io.ownsProcess && !process.env.CLAUDE_CODE_ENTRYPOINT) process.env.CLAUDE_CODE_ENTRYPOINT = entrypoint
}
