import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import { absolutePathField } from '../_shared/absolute-path.js'
import { allowedDirsOptions, confinementLifted, sessionDirectories } from '../_shared/allowed-paths.js'
import { forgetSession } from '../_shared/read-state.js'
import { restoreReads } from '../_shared/read-state-restore.js'
import { registerTool } from '../_shared/register-tool.js'
import { delegated } from '../_shared/tool-delegate.js'
import { publishToolOutput } from '../_shared/tool-output.js'
import { readOutputShape } from './output-shape.js'
import { CHARS_PER_TOKEN } from './limits.js'
import { READ_DESCRIPTION, readInput, readTool } from './read-file.js'
import { builtinOptions } from '../_shared/builtin-options.js'
import { clientFiles } from './client-files.js'

const options = builtinOptions('read', () => allowedDirsOptions().extend({
  /**
   * Read's output cap in characters: a whole-file read stops at a line boundary before it (a
   * PARTIAL view), an explicit range past it is refused. Unset: Claude Code's
   * CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS (settings `env` included, read at each call) at four
   * characters a token, else 25,000 tokens' worth.
   */
  maxOutputChars: z.number().int().min(1_000).optional(),
}))

const DEFAULT_OUTPUT_TOKENS = 25_000

/** The character budget a token count in the environment stands for; a malformed value is ignored, as an unset one. */
function readOutputChars(tokens: string | undefined): number {
  const n = tokens === undefined || tokens.trim() === '' ? NaN : Number(tokens)
  return (Number.isInteger(n) && n > 0 ? n : DEFAULT_OUTPUT_TOKENS) * CHARS_PER_TOKEN
}

/**
 * What `allow_large` may fill: two thirds of the window less what the last request held, the
 * rest kept for the turn to go on (Claude Code leaves near as much: 668K of 1M, 102K of 200K).
 */
function contextRoom({ tokens, window }: { tokens: number; window: number }): number {
  return Math.max(0, Math.floor((window * 2) / 3) - tokens)
}

/**
 * Read: numbered lines of a text file; records what was read for Edit and Write. The application's
 * own reads (Query.readFile) and the reads it saw (Query.seedReadState) go through it too.
 */
export default defineMod({
  name: 'read',
  description: 'The Read tool',
  options,
  provides: ['toolOutput.Read', 'fileAccess'],
  uses: { permissions: 'optional', permissionMode: 'optional', shellCwd: 'optional' },
  register(on, opts, $) {
    $.capability.provide('fileAccess', clientFiles($, opts.additionalDirectories))
    on('session.start', async ($, e, next) => {
      await registerTool($, { name: 'Read', description: READ_DESCRIPTION, input: readInput, isReadOnly: true, resolveInput: absolutePathField('file_path', $), call: async (input, ctx) => {
        const dirs = await sessionDirectories($, opts.additionalDirectories)
        const maxOutputChars = opts.maxOutputChars ?? readOutputChars($.env.get('CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS'))
        return (await delegated('Read', input, ctx, dirs)) ?? readTool(input, ctx, { ...opts, maxOutputChars, additionalDirectories: dirs, anywhere: confinementLifted($), room: () => contextRoom($.session.usage().context) })
      } })
      publishToolOutput($, 'Read', readOutputShape)
      // A resumed or forked session knows the files its history read, as long as they did not change since.
      if (e.resumedFrom) await restoreReads(e.sessionId, $.session.messages() as MessageParam[], e.resumedFrom.lastActivityMs, e.resumedFrom.carried?.readFiles)
      return next(e)
    })
    on('session.end', ($, e, next) => {
      forgetSession(e.sessionId)
      return next(e)
    })
  },
})
