import { z } from 'zod'
import { STAGE } from '../../core/bus/types.js'
import { defineMod } from '../../core/mod/define.js'
import { allowedDirsOptions, sessionDirectories } from '../_shared/allowed-paths.js'
import { forgetSession } from '../_shared/read-state.js'
import { readMention } from './read-mention.js'
import { envTrue } from '../../core/env.js'
import { builtinOptions } from '../_shared/builtin-options.js'

const options = builtinOptions('mentions', () => allowedDirsOptions().extend({
  /** Lines of a file attached when the mention names no range (a range asks for more, up to its length). */
  maxLines: z.number().int().min(1).default(2_000),
  maxLineChars: z.number().int().min(80).default(2_000),
  maxFileBytes: z.number().int().min(1).default(10 * 1024 * 1024),
  /** Entries of a directory listing. */
  maxEntries: z.number().int().min(1).default(1_000),
}))

/**
 * Mentions: `@path` in a prompt attaches the file (numbered lines, `#L10-20` ranges), an image or a
 * directory listing, unless the permission check refuses a Read of it.
 */
export default defineMod({
  name: 'mentions',
  description: 'Reads the files and directories a prompt @-mentions',
  options,
  uses: { permissions: 'optional' },
  register(on, opts) {
    // Innermost, where the read belongs: a mod that rewrites the path or range on the way down
    // is heard, and one that post-processes (memory adds the directory's CLAUDE.md) sees the file.
    on('prompt.mention', async ($, e, next) => mentionsOff((name) => $.env.get(name)) ? next(e) : readMention(e, { ...opts, additionalDirectories: await sessionDirectories($, opts.additionalDirectories) }, {
      cwd: $.session.cwd() as string, sessionId: $.session.id() as string, warn: (m) => $.log.warn(m),
      check: async (path) => (await $.tool.check({ tool: 'Read', input: { file_path: path } })) as { decision: string; reason?: string; rule?: string },
    }), { stage: STAGE.last })
    on('session.end', (_$, e, next) => {
      forgetSession(e.sessionId)
      return next(e)
    })
  },
})

/**
 * CLAUDE_CODE_DISABLE_FILE_MENTIONS, or CLAUDE_CODE_DISABLE_ATTACHMENTS: as in Claude Code, an
 * `@path` attaches nothing and stays in the prompt as typed.
 */
function mentionsOff(get: (name: string) => string | undefined): boolean {
  return envTrue(get('CLAUDE_CODE_DISABLE_FILE_MENTIONS')) || envTrue(get('CLAUDE_CODE_DISABLE_ATTACHMENTS'))
}
