import { uuid } from '../../core/random.js'
import { existsSync, readFileSync } from 'node:fs'
import { extname, isAbsolute, resolve } from 'node:path'
import { ModloopError } from '../../core/errors.js'
import type { CommandRun, Values } from '../command.js'
import { splitRuleList } from '../permissions-rule-list.js'
import { usageError } from '../usage-error.js'
import { followJob } from './follow.js'
import { jobDataSchema, type JobData } from './job-data.js'
import { DEFAULT_RETRIES, openQueue, QUEUE, WAKE_CHANNEL } from './queue.js'
import { num, str } from '../flag-values.js'
import { headlessPrompt } from '../piped-input.js'

const FORMATS = ['text', 'json', 'stream-json']
// A backstop only: a worker holds each job's lock while it runs it, and a job is taken back as soon as its worker is gone.
const EXPIRE_SECONDS = 4 * 3600

/**
 * `modloop submit --queue URL -p PROMPT` (or the prompt piped in): puts a job on the queue and prints its id; with `--wait`,
 * prints what `-p` would print for it (following its messages as they arrive) and exits as `-p` would.
 */
export const submit: CommandRun = async ({ values, io }) => {
  const format = str(values, 'output-format') ?? 'text'
  if (!FORMATS.includes(format)) throw usageError(`--output-format must be one of ${FORMATS.join(', ')}`)
  const queueUrl = str(values, 'queue')
  if (!queueUrl) throw usageError('--queue URL is needed: the Postgres the workers take jobs from')
  // As `-p` takes it: input piped beside -p follows it on a line of its own; with no -p, it is the whole prompt.
  const given = str(values, 'prompt')
  const data = jobData(values, await headlessPrompt(given ? [given] : [], io), io.cwd)
  // Checked before the queue is opened: pg-boss would refuse a fraction in its own words, after connecting.
  const retries = whole(values, 'retries')
  const priority = whole(values, 'priority')
  const queue = await openQueue(queueUrl, { role: 'submit', supervise: false, log: (line) => io.stderr.write(`modloop: ${line}\n`) })
  try {
    const id = await queue.boss.send(QUEUE, data, { retryLimit: retries ?? DEFAULT_RETRIES, expireInSeconds: EXPIRE_SECONDS, ...(priority !== undefined ? { priority } : {}) })
    if (!id) throw new ModloopError('MODLOOP_ERR_JOB', 'the queue did not take the job')
    await queue.pool.query('SELECT pg_notify($1, $2)', [WAKE_CHANNEL, 'submitted'])
    if (values.wait !== true) {
      io.stdout.write(`${id}\n`)
      return 0
    }
    io.stderr.write(`modloop: job ${id} (session ${data.sessionId})\n`)
    return await followJob(queue, id, format, values.verbose === true, io)
  } finally {
    await queue.close()
  }
}

function jobData(values: Values, prompt: string, cwd: string): JobData {
  if (!prompt.trim()) throw usageError('-p PROMPT is needed (or the prompt piped in): what the job asks')
  const dir = resolve(cwd, str(values, 'cwd') ?? '.')
  const resumeId = str(values, 'resume')
  const sessionId = resumeId ?? str(values, 'session-id') ?? uuid()
  if (resumeId && str(values, 'session-id')) throw usageError('--resume and --session-id cannot be used together: a resumed session keeps its id')
  const config = str(values, 'config')
  const mode = str(values, 'permission-mode')
  const data = {
    prompt, cwd: dir, sessionId, ...(resumeId ? { resume: true } : {}),
    // A config path goes as an absolute path; a package name as it is.
    ...(config ? { config: isAbsolute(config) || existsSync(resolve(cwd, config)) ? resolve(cwd, config) : config } : {}),
    options: {
      ...(str(values, 'model') ? { model: str(values, 'model') } : {}),
      ...(num(values, 'max-turns') !== undefined ? { maxTurns: num(values, 'max-turns') } : {}),
      ...(num(values, 'max-budget-usd') !== undefined ? { maxBudgetUsd: num(values, 'max-budget-usd') } : {}),
      ...(mode ? { permissionMode: mode } : {}),
      ...(Array.isArray(values.allowedTools) ? { allowedTools: splitRuleList(values.allowedTools.map(String)) } : {}),
      ...(Array.isArray(values.disallowedTools) ? { disallowedTools: splitRuleList(values.disallowedTools.map(String)) } : {}),
      ...(str(values, 'append-system-prompt') ? { appendSystemPrompt: str(values, 'append-system-prompt') } : {}),
      ...(str(values, 'script') ? { script: script(resolve(cwd, str(values, 'script')!)) } : {}),
    },
  }
  const parsed = jobDataSchema.safeParse(data)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw usageError(`${flagOf(issue.path)}: ${issue.message}`)
  }
  return parsed.data
}

function whole(values: Values, key: string): number | undefined {
  const n = num(values, key)
  if (n !== undefined && !Number.isInteger(n)) throw usageError(`--${key} takes a whole number, not "${String(values[key])}"`)
  return n
}

/** A JSON script goes with the job (the worker needs no copy of the file); another kind as its path. */
function script(file: string): unknown {
  if (!existsSync(file)) throw usageError(`--script: no such file: ${file}`)
  if (extname(file) !== '.json') return file
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch (err) {
    throw usageError(`--script: ${file} is not valid JSON: ${(err as Error).message}`)
  }
}

const FLAGS: Record<string, string> = { sessionId: '--session-id', maxTurns: '--max-turns', maxBudgetUsd: '--max-budget-usd', permissionMode: '--permission-mode', model: '--model' }
const flagOf = (path: readonly PropertyKey[]) => FLAGS[String(path.at(-1))] ?? `--${String(path.at(-1))}`


