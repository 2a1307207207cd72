import { constants } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'

export type RegularFile =
  | { ok: true; bytes: Buffer; mtimeMs: number }
  | { ok: false; why: 'missing' | 'directory' | 'irregular'; message?: undefined }
  | { ok: false; why: 'too-large'; size: number; message?: undefined }
  | { ok: false; why: 'error'; message: string }

// Opening a FIFO for reading waits for a writer; non-blocking, it opens at once and fstat refuses it.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)

/**
 * The bytes and mtime of a regular file of at most `maxBytes`. Four trips to the thread pool (open,
 * fstat, read, close, the last not waited for) instead of the six of stat + readFile: each trip
 * costs the event loop tens of microseconds, which ten concurrent Reads pay one after another.
 */
export async function readRegular(path: string, maxBytes: number): Promise<RegularFile> {
  let handle: FileHandle
  try {
    handle = await open(path, READ_FLAGS)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, why: 'missing' }
    if (code === 'EISDIR') return { ok: false, why: 'directory' }
    return { ok: false, why: 'error', message: (err as Error).message }
  }
  let result: RegularFile
  try {
    const info = await handle.stat()
    if (info.isDirectory()) result = { ok: false, why: 'directory' }
    else if (!info.isFile()) result = { ok: false, why: 'irregular' }
    else if (info.size > maxBytes) result = { ok: false, why: 'too-large', size: info.size }
    // A size of 0 may be a file that does not know its size (procfs): read it to its end.
    else result = { ok: true, bytes: info.size === 0 ? await handle.readFile() : await readExactly(handle, info.size), mtimeMs: info.mtimeMs }
  } catch (err) {
    result = { ok: false, why: 'error', message: (err as Error).message }
  }
  handle.close().catch(() => {})
  return result
}

/** The first `size` bytes (fewer if the file shrank since fstat): what was there when it was stat'ed. */
async function readExactly(handle: FileHandle, size: number): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(size)
  let filled = 0
  while (filled < size) {
    const { bytesRead } = await handle.read(bytes, filled, size - filled, filled)
    if (bytesRead === 0) break
    filled += bytesRead
  }
  return filled === size ? bytes : bytes.subarray(0, filled)
}
