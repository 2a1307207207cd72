import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describeError } from '../../core/errors.js'
import type { TaskRecord } from '../_shared/tasks.js'
import { writeJsonAtomic } from '../_shared/json-file.js'

/** `<session dir>/tasks/`: each task's output (`<id>.output`) and its record (`<id>.json`). */
export const tasksDirOf = (sessionDir: string): string => join(sessionDir, 'tasks')

/** Writes a task's record whole (a temporary file renamed over it), so a reader never sees half of one. */
export async function writeRecord(dir: string, record: TaskRecord): Promise<void> {
  await writeJsonAtomic(join(dir, `${record.id}.json`), record)
}

/**
 * Marks the tasks a previous process left `running` in `dir` as stopped, with a note: that
 * process is gone, and its tasks with it. Returns them, and those it stopped as the session ended
 * without telling the model (`untold`), once; unreadable records are reported and kept.
 */
export async function stopStale(dir: string, warn: (message: string) => void, now = Date.now()): Promise<TaskRecord[]> {
  let names: string[]
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort()
  } catch {
    return []
  }
  const stale: TaskRecord[] = []
  for (const name of names) {
    const file = join(dir, name)
    let record: TaskRecord
    try {
      record = JSON.parse(await readFile(file, 'utf8')) as TaskRecord
    } catch (err) {
      warn(`${file}: the task record could not be read (${describeError(err)}); left as it is`)
      continue
    }
    if (record?.status !== 'running' && record?.untold !== true) continue
    const { untold: _, ...told } = record
    const stopped: TaskRecord = told.status === 'running' ? { ...told, status: 'stopped', endTime: now, note: 'still running when the process that ran it ended' } : told
    try {
      await writeRecord(dir, stopped)
    } catch (err) {
      warn(`${file}: could not be marked stopped (${describeError(err)})`)
    }
    stale.push(stopped)
  }
  return stale
}
