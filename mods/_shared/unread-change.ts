import type { ModApi } from '../../core/mod/api.js'
import type { ToolContext } from '../../core/tools/tool.js'

/**
 * The models that must Read a file before Write or Edit may change it, as Claude Code holds them:
 * Claude 3.5 and 3.7, Sonnet 4 and 4.5, Opus 4 to 4.6, Haiku 4.5. Any other model — a newer one,
 * or an id not known here — may change a file it has not read (spec loop-and-sdk §7.1, Write).
 */
const READ_FIRST = ['claude-3-5-sonnet', 'claude-3-5-haiku', 'claude-3-7-sonnet', 'claude-sonnet-4', 'claude-sonnet-4-5',
  'claude-opus-4', 'claude-opus-4-1', 'claude-opus-4-5', 'claude-opus-4-6', 'claude-haiku-4-5']

// A family's name ends where no minor version follows it: `claude-sonnet-4-20250514` (a date) and
// `us.anthropic.claude-opus-4-6-v1:0` name one of them, `claude-sonnet-4-6` does not name Sonnet 4.
const READ_FIRST_ID = new RegExp(`(?:${READ_FIRST.join('|')})(?!-\\d{1,2}(?!\\d))`)

export function mustReadFirst(model: string): boolean {
  return READ_FIRST_ID.test(model.toLowerCase())
}

/** Asks whether the model of this call may change the existing file at `path` (a real path) that this session has not read. */
export type UnreadCheck = (path: string, ctx: ToolContext) => Promise<boolean>

/**
 * The check for one mod's tool calls: a model not bound to read first may change an unread file
 * when a Read of it would not have asked (inside the working directories, no Read ask or deny
 * rule, or a mode that allows it). A notebook must always be read first: its cells are JSON the
 * model cannot safely rewrite blind. Without the permissions mod nothing is asked, so only the
 * model counts. The model is the caller's: a subagent on an older model reads first under a newer one.
 */
export function unreadCheck($: ModApi): UnreadCheck {
  return async (path, ctx) => {
    if (path.toLowerCase().endsWith('.ipynb') || mustReadFirst(ctx.model ?? String($.session.model()))) return false
    const permissions = $.capability.use('permissions')
    return !permissions || (await permissions.check('Read', { file_path: path })).decision === 'allow'
  }
}

/** Refuses every unread file: the tools' own default, for hosts that do not pass a check. */
export const readFirstAlways: UnreadCheck = async () => false
