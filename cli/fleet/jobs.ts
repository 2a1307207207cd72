import { ModloopError } from '../../core/errors.js'
import { redact } from '../../mods/transcripts/store/postgres/connect.js'
import type { CommandRun } from '../command.js'
import type { Io } from '../io.js'
import { renderPretty } from '../pretty.js'
import { table } from '../table.js'
import { usageError } from '../usage-error.js'
import { followJob } from './follow.js'
import { getJob, jobMessages, listJobs, queuePause, type JobView } from './job-read.js'
import { cancelJob } from './job-state.js'
import { openQueue, type Queue } from './queue.js'

const PROMPT_CHARS = 40
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * `modloop jobs --queue URL`: the queue's jobs, newest first — state, session, runs, messages so far,
 * cost and result (`--json`: an array of `{ id, state, sessionId, result, … }`). With a job id: that
 * job and its messages (`--follow`: as they arrive, until it ends; `--cancel`: cancels it, and the
 * worker running it stops its turn).
 */
export const jobs: CommandRun = async ({ values, positionals, io }) => {
  const queueUrl = typeof values.queue === 'string' ? values.queue : undefined
  if (!queueUrl) throw usageError('--queue URL is needed: the Postgres the workers take jobs from')
  const limit = values.limit === undefined ? 100 : Number(values.limit)
  if (!Number.isInteger(limit) || limit <= 0) throw usageError(`--limit takes a positive whole number, not "${String(values.limit)}"`)
  const id = positionals[0]
  // The id goes into a uuid column: anything else would fail there in the server's words.
  if (id !== undefined && !UUID.test(id)) throw usageError(`a job id is a UUID (as submit printed it), not "${id}"`)
  if (values.cancel === true && id === undefined) throw usageError('--cancel needs the id of the job to cancel')
  const queue = await openQueue(queueUrl, { role: 'jobs', supervise: false, log: (line) => io.stderr.write(`modloop: ${line}\n`) })
  try {
    if (id === undefined) {
      const list = await listJobs(queue.pool, limit)
      io.stdout.write(values.json === true ? `${JSON.stringify(list, null, 2)}\n` : list.length === 0 ? `no jobs on the queue at ${redact(queueUrl)}\n` : tableOf(list))
      // Else jobs sit waiting with nothing to say why.
      const pause = await queuePause(queue.pool)
      if (pause) io.stderr.write(`modloop: the queue is paused until ${pause.until.toISOString()} (${pause.reason}): no worker starts a job before then\n`)
      return 0
    }
    if (values.cancel === true) return await cancel(queue, id, io)
    if (values.follow === true) return await followJob(queue, id, values.json === true ? 'stream-json' : 'text', values.json !== true, io)
    const job = await getJob(queue.pool, id)
    if (!job) throw new ModloopError('MODLOOP_ERR_JOB', `no job ${id} on the queue at ${redact(queueUrl)}`, { field: 'id' })
    const messages = (await jobMessages(queue.pool, id, 0)).map((m) => m.message)
    if (values.json === true) {
      io.stdout.write(`${JSON.stringify({ ...job, messages }, null, 2)}\n`)
      return 0
    }
    io.stdout.write(`job ${job.id}: ${job.state}${job.runs > 1 ? ` after ${job.runs} runs` : ''} · session ${job.sessionId ?? '-'}${job.result ? ` · $${job.result.total_cost_usd.toFixed(4)}` : ''}\n`)
    if (job.error) io.stdout.write(`error: ${job.error}\n`)
    for (const m of messages) io.stdout.write(renderPretty(m, { color: false }))
    return 0
  } finally {
    await queue.close()
  }
}

async function cancel(queue: Queue, id: string, io: Io): Promise<number> {
  if (await cancelJob(queue.pool, id)) {
    io.stdout.write(`job ${id} cancelled\n`)
    return 0
  }
  const job = await getJob(queue.pool, id)
  if (!job) throw new ModloopError('MODLOOP_ERR_JOB', `no job ${id} on the queue at ${redact(queue.url)}`, { field: 'id' })
  io.stderr.write(`modloop: job ${id} has ended already (${job.state}); nothing to cancel\n`)
  return 1
}

function tableOf(list: JobView[]): string {
  const rows = list.map((j) => [
    j.id, j.state, j.sessionId ?? '-', String(j.runs), String(j.messages),
    j.result ? `$${j.result.total_cost_usd.toFixed(4)}` : '-',
    short(j.result?.result ?? j.error ?? j.prompt),
  ])
  return table(['ID', 'STATE', 'SESSION', 'RUNS', 'MESSAGES', 'COST', 'RESULT / ERROR / PROMPT'], rows)
}

function short(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length <= PROMPT_CHARS ? line || '-' : `${line.slice(0, PROMPT_CHARS - 1)}…`
}
