import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { onFirstUse } from '../../core/on-first-use.js'
import { writeJsonAtomic } from '../_shared/json-file.js'

/** A scheduled job as the tools and the file know it. */
export interface Job {
  id: string
  cron: string
  prompt: string
  /** When CronCreate made it (ms): a recurring job's age counts from here. */
  createdAt: number
  recurring: boolean
  durable: boolean
  /** How long a recurring job lives before its last run. */
  maxAgeMs?: number
  /** When it last ran (ms): a recurring job's next run counts from here. */
  lastFiredAt?: number
}

/** Where a project's durable jobs live: the file Claude Code uses, so a project has one list. */
export const jobsFileOf = (cwd: string) => join(cwd, '.claude', 'scheduled_tasks.json')

// Built on first use: only a project with a jobs file has entries to check.
const Stored = onFirstUse(() => z.object({
  id: z.string().min(1),
  cron: z.string(),
  prompt: z.string(),
  createdAt: z.number(),
  recurring: z.boolean().optional(),
  maxAgeMs: z.number().optional(),
  lastFiredAt: z.number().optional(),
}))

/**
 * A jobs file that is there but cannot be read as a list of jobs (not JSON, `tasks` no list, no
 * read permission). It is never written over: its jobs would be lost, when one fix may bring them back.
 */
export class UnreadableJobsFile extends Error {}

/**
 * The durable jobs of a project. A missing file is no jobs; an entry that is not a job is left
 * out with a warning, so one bad line does not lose the rest. A file that is there but cannot
 * be read throws UnreadableJobsFile.
 */
export async function readJobs(file: string, warn: (m: string) => void): Promise<Job[]> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    // No file, or no folder where .claude should be: nothing to lose by writing.
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return []
    throw new UnreadableJobsFile(`${file} cannot be read (${(err as Error).message}); it is left as it is, and durable jobs are not saved`)
  }
  let tasks: unknown
  try {
    tasks = (JSON.parse(text) as { tasks?: unknown } | null)?.tasks
  } catch (err) {
    throw new UnreadableJobsFile(`${file} is not JSON (${(err as Error).message}); it is left as it is, so its jobs are not lost, and durable jobs are not saved until it is fixed`)
  }
  if (tasks === undefined) return []
  if (!Array.isArray(tasks)) throw new UnreadableJobsFile(`${file}: "tasks" is not a list; it is left as it is, and durable jobs are not saved until it is fixed`)
  const jobs: Job[] = []
  for (const t of tasks) {
    const parsed = Stored().safeParse(t)
    if (parsed.success) jobs.push({ ...parsed.data, recurring: parsed.data.recurring !== false, durable: true })
    else warn(`${file}: an entry that is no scheduled job was left out`)
  }
  return jobs
}

/** Writes the durable jobs whole, through a temporary file, so a reader never sees half a list. */
export async function writeJobs(file: string, jobs: readonly Job[]): Promise<void> {
  const tasks = jobs.map(({ durable: _durable, ...job }) => job)
  await writeJsonAtomic(file, { tasks })
}
