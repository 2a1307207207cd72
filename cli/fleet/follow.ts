import type { Client } from 'pg'
import { setTimeout as sleep } from 'node:timers/promises'
import { ModloopError } from '../../core/errors.js'
import type { SDKResultMessage } from '../../core/loop/messages.js'
import { connectClient, redact } from '../../mods/transcripts/store/postgres/connect.js'
import { print, printResult } from '../headless.js'
import type { Io } from '../io.js'
import { ENDED, getJob, jobMessages, type JobView } from './job-read.js'
import { MESSAGES_CHANNEL, type Queue } from './queue.js'

/**
 * Prints a job's messages as they arrive, the way `-p` prints a session's in `format`, until the
 * job ends; then its result as `-p` would, answering `-p`'s exit code (0 success, 1 an error
 * result or a failed job). Workers notify on each batch of messages; a poll covers a lost notification.
 */
export async function followJob(queue: Queue, id: string, format: string, verbose: boolean, io: Io): Promise<number> {
  const listener = await connectClient(queue.url, 'follow')
  let kick: (() => void) | undefined
  listener.on('notification', (n) => { if (n.payload === id) kick?.() })
  try {
    await listener.query(`LISTEN ${MESSAGES_CHANNEL}`)
    let after = 0
    // The result as the session sent it: the job's output comes back from a jsonb column, its keys reordered.
    const sent = new Map<string, SDKResultMessage>()
    for (;;) {
      const arrived = new Promise<void>((resolve) => { kick = resolve })
      const job = await getJob(queue.pool, id)
      if (!job) throw new ModloopError('MODLOOP_ERR_JOB', `no job ${id} on the queue at ${redact(queue.url)}`, { field: 'id' })
      // Messages are read after the state, so those of a job that just ended are all there.
      for (const { id: at, message } of await jobMessages(queue.pool, id, after)) {
        after = at
        if (message.type === 'result') sent.set(message.uuid, message)
        print(format, verbose, message, io)
      }
      if (ENDED.has(job.state)) return ended(job, format, io, job.result ? sent.get(job.result.uuid) : undefined)
      await Promise.race([arrived, sleep(1000)])
    }
  } finally {
    await end(listener)
  }
}

function ended(job: JobView, format: string, io: Io, sent: SDKResultMessage | undefined): number {
  if (job.result) return printResult(format, sent ?? job.result, io)
  io.stderr.write(`modloop: job ${job.id} ${job.state}${job.error ? `: ${job.error}` : ''}\n`)
  return 1
}

async function end(client: Client): Promise<void> {
  await client.end().catch(() => undefined)
}
