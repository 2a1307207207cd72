import { constants } from 'node:fs'
import { open, readFile, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { z } from 'zod'
import type { ModApi } from '../../core/mod/api.js'
import type { FileAccess, FileReadAnswer } from '../../core/mod/session-capabilities.js'
import { checkPath, confinementLifted, realpathLoose, sessionDirectories } from '../_shared/allowed-paths.js'
import { hashBytes, recordRead } from '../_shared/read-state.js'
import { describeError } from '../../core/errors.js'

/** Query.readFile's cap when the application gives none, as Claude Code's (1 MB). */
export const CLIENT_READ_MAX_BYTES = 1024 * 1024

// A FIFO swapped in after the check opens at once and is then refused by its fstat, not waited on.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0)

const readRequest = z.object({
  path: z.string().min(1, 'path must not be empty'),
  maxBytes: z.number().int().positive().optional(),
  encoding: z.enum(['utf-8', 'base64']).optional(),
})
const seedRequest = z.object({ path: z.string().min(1, 'path must not be empty'), mtime: z.number().finite() })

/** The first problem zod found, as `field: message`. */
function invalid(method: string, error: z.ZodError): string {
  const issue = error.issues[0]!
  return `${method}: ${issue.path.join('.') || 'request'}: ${issue.message}`
}

/**
 * The session's files for the application (Query.readFile, Query.seedReadState). A read is
 * gated as a Read call is, without anyone to ask: the permission rules must allow it outright
 * (a path that would need approval is refused), and without the permissions mod the session's
 * directories fence it. `ownDirs` is the read mod's own additionalDirectories option.
 */
export function clientFiles($: ModApi, ownDirs: readonly string[]): FileAccess {
  return {
    async read(request) {
      const parsed = readRequest.safeParse(request)
      if (!parsed.success) throw new Error(invalid('readFile', parsed.error))
      const { path, maxBytes = CLIENT_READ_MAX_BYTES, encoding } = parsed.data
      const absPath = resolve(request.cwd, path)
      const permissions = $.capability.use('permissions')
      if (permissions) {
        const verdict = await permissions.check('Read', { file_path: absPath })
        if (verdict.decision !== 'allow') {
          const why = verdict.decision === 'deny' ? 'is denied' : 'would need approval'
          return { ok: false, reason: `reading ${absPath} ${why}${verdict.rule ? ` (${verdict.rule})` : ''}` }
        }
      }
      const checked = await checkPath(absPath, request.cwd, await sessionDirectories($, ownDirs), { anywhere: confinementLifted($) })
      if (!checked.ok) return { ok: false, reason: checked.message }
      const bytes = await readCapped(checked.path, maxBytes)
      if (typeof bytes === 'string') return { ok: false, reason: `${absPath}: ${bytes}` }
      const truncated = bytes.length > maxBytes
      const kept = truncated ? bytes.subarray(0, maxBytes) : bytes
      const file: FileReadAnswer = encoding === 'base64'
        ? { contents: kept.toString('base64'), absPath, encoding: 'base64' }
        : { ...decoded(kept), absPath }
      return { ok: true, file: truncated ? { ...file, truncated: true } : file }
    },

    async seed(request) {
      const parsed = seedRequest.safeParse(request)
      if (!parsed.success) throw new Error(invalid('seedReadState', parsed.error))
      const absPath = resolve(request.cwd, parsed.data.path)
      const real = await realpathLoose(absPath)
      const info = await stat(real).catch(() => undefined)
      if (!info?.isFile()) return { seeded: false, reason: `${absPath} is not a file` }
      // The mtime the application saw is floored to the millisecond, as Claude Code's read state keeps it.
      if (Math.floor(info.mtimeMs) > parsed.data.mtime) {
        return { seeded: false, reason: `${absPath} changed on disk after ${parsed.data.mtime} (its mtime is ${Math.floor(info.mtimeMs)}): it must be read again` }
      }
      recordRead(request.sessionId, real, { mtimeMs: info.mtimeMs, hash: hashBytes(await readFile(real)), whole: true })
      return { seeded: true }
    },
  }
}

/** Up to `maxBytes` + 1 bytes of a regular file (the extra byte tells a cut), or why it cannot be read. */
async function readCapped(path: string, maxBytes: number): Promise<Buffer | string> {
  let handle
  try {
    handle = await open(path, READ_FLAGS)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : describeError(err)
  }
  try {
    const info = await handle.stat()
    if (info.isDirectory()) return 'is a directory'
    if (!info.isFile()) return 'is not a regular file'
    const buffer = Buffer.alloc(Math.min(maxBytes + 1, info.size > 0 ? info.size : maxBytes + 1))
    let filled = 0
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled)
      if (bytesRead === 0) break
      filled += bytesRead
    }
    return buffer.subarray(0, filled)
  } catch (err) {
    return describeError(err)
  } finally {
    await handle.close()
  }
}

/** The bytes as text; `lossy` when some were not valid UTF-8 (a binary file, a cut inside a character). */
function decoded(bytes: Buffer): { contents: string; lossy: boolean } {
  try {
    return { contents: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), lossy: false }
  } catch {
    return { contents: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), lossy: true }
  }
}
