import type { SDKMessage } from '../../core/loop/messages.js'
import { contextWindow } from '../../core/model/pricing.js'
import { VERSION } from '../../core/version.js'

/** One request's token counts, as the API reports them. */
interface Usage { input_tokens: number; output_tokens: number; cache_creation_input_tokens: number; cache_read_input_tokens: number }

/** Where the session runs: what the stream does not say. */
export interface StatusPlace {
  sessionId: string
  transcriptPath: string
  /** The folder the session was started in. */
  projectDir: string
  addedDirs: readonly string[]
}

/**
 * The facts a custom status line is given, gathered from the session's message stream: the
 * model, the output style, the cost and times of the results, and the token use of the main
 * conversation's requests (a subagent's are not the conversation's context).
 */
export class StatusFacts {
  model = ''
  cwd = ''
  outputStyle = 'default'
  private costUsd = 0
  private apiMs = 0
  private inputTokens = 0
  private outputTokens = 0
  private current: Usage | undefined
  private readonly started = performance.now()

  constructor(readonly place: StatusPlace) {}

  /** Takes what a stream message tells; answers whether the status line should run again. */
  onMessage(m: SDKMessage): boolean {
    if (m.type === 'system' && m.subtype === 'init') {
      this.model = String(m.model)
      if (typeof m.cwd === 'string') this.cwd = m.cwd
      if (typeof m.output_style === 'string') this.outputStyle = m.output_style
      return true
    }
    if (m.type === 'system' && m.subtype === 'compact_boundary') {
      this.current = undefined
      return true
    }
    if (m.type === 'assistant' && !m.parent_tool_use_id && !m.is_api_error_message) {
      const u = m.message.usage as Partial<Usage>
      this.current = { input_tokens: u.input_tokens ?? 0, output_tokens: u.output_tokens ?? 0, cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0, cache_read_input_tokens: u.cache_read_input_tokens ?? 0 }
      this.inputTokens += this.current.input_tokens + this.current.cache_creation_input_tokens + this.current.cache_read_input_tokens
      this.outputTokens += this.current.output_tokens
      return true
    }
    if (m.type === 'result') {
      this.costUsd = m.total_cost_usd
      this.apiMs = m.duration_api_ms
      return true
    }
    return false
  }

  /** The JSON object the command reads on its stdin, with Claude Code's field names; `lines`: what the session's edits changed. */
  input(lines: { added: number; removed: number } = { added: 0, removed: 0 }): Record<string, unknown> {
    const size = contextWindow(this.model)
    const c = this.current
    const used = c ? c.input_tokens + c.cache_creation_input_tokens + c.cache_read_input_tokens : undefined
    const percent = used === undefined || size <= 0 ? null : Math.min(100, Math.round((used / size) * 100))
    const cwd = this.cwd || this.place.projectDir
    return {
      session_id: this.place.sessionId,
      transcript_path: this.place.transcriptPath,
      cwd,
      model: { id: this.model, display_name: displayName(this.model) },
      workspace: { current_dir: cwd, project_dir: this.place.projectDir, added_dirs: [...this.place.addedDirs] },
      version: VERSION,
      output_style: { name: this.outputStyle },
      cost: {
        total_cost_usd: this.costUsd,
        total_duration_ms: Math.round(performance.now() - this.started),
        total_api_duration_ms: this.apiMs,
        total_lines_added: lines.added,
        total_lines_removed: lines.removed,
      },
      context_window: {
        total_input_tokens: this.inputTokens,
        total_output_tokens: this.outputTokens,
        context_window_size: size,
        current_usage: c ?? null,
        used_percentage: percent,
        remaining_percentage: percent === null ? null : 100 - percent,
      },
      exceeds_200k_tokens: (used ?? 0) + (c?.output_tokens ?? 0) > 200_000,
    }
  }
}

/** `claude-sonnet-4-5-20250929` → `Sonnet 4.5`; an id of another shape is its own name. */
export function displayName(model: string): string {
  const m = /^claude-(opus|sonnet|haiku|fable)-(\d+)(?:-(\d{1,2}))?(?:-\d{8})?(\[1m\])?$/.exec(model)
  if (!m) return model
  const family = m[1]![0]!.toUpperCase() + m[1]!.slice(1)
  return `${family} ${m[2]}${m[3] ? `.${m[3]}` : ''}${m[4] ? ' (1M context)' : ''}`
}
