import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { z } from 'zod'

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

const Stored = z.object({
  id: z.string().min(1),
  cron: z.string(),
  prompt: z.string(),
  createdAt: z.number(),
  recurring: z.boolean().optional(),
  maxAgeMs: z.number().optional(),
  lastFiredAt: z.number().optional(),
})

/**
 * The durable jobs of a project. A missing file is no jobs; an entry that is not a job is left
 * out with a warning, so one bad line does not lose the rest.
 */
export async function readJobs(file: string, warn: (m: string) => void): Promise<Job[]> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return []
  }
  let tasks: unknown
  try {
    tasks = (JSON.parse(text) as { tasks?: unknown }).tasks
  } catch (err) {
    warn(`${file}: not JSON (${(err as Error).message}); its scheduled jobs are not loaded`)
    return []
  }
  if (!Array.isArray(tasks)) return []
  const jobs: Job[] = []
  for (const t of tasks) {
    const parsed = Stored.safeParse(t)
    if (parsed.success) jobs.push({ ...parsed.data, recurring: parsed.data.recurring !== false, durable: true })
    else warn(`${file}: an entry that is no scheduled job was left out`)
  }
  return jobs
}

/** Writes the durable jobs whole, through a temporary file, so a reader never sees half a list. */
export async function writeJobs(file: string, jobs: readonly Job[]): Promise<void> {
  const tasks = jobs.map(({ durable: _durable, ...job }) => job)
  await mkdir(dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  await writeFile(tmp, `${JSON.stringify({ tasks }, null, 2)}\n`)
  await rename(tmp, file)
}
