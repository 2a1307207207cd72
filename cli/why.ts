import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { projectDir, traceFileOf, transcriptPath } from '../mods/transcripts/store/paths.js'
import { describeRecord } from './why-trace/describe.js'
import { readTrace, traceFiles } from './why-trace/read.js'
import type { ProvenanceRecord } from '../core/trace/record.js'
import type { CommandRun } from './command.js'

/**
 * `modloop why <tool_use_id | prompt>`: which mods changed or decided a tool call or the prompt,
 * read from the sessions' trace files (`<session>.trace.jsonl` beside each transcript). A
 * tool_use_id is looked for in every session of the directory, newest first; `prompt` in the
 * newest session, or the one --session names. Exit 1 when no trace holds the subject.
 */
export const why: CommandRun = async ({ values, positionals, io }) => {
  const subject = positionals[0]!
  const cwd = resolve(io.cwd, typeof values.cwd === 'string' ? values.cwd : '.')
  if (typeof values.session === 'string' && !existsSync(transcriptPath(cwd, values.session, io.env))) {
    io.stderr.write(`modloop: why ${subject}: session ${values.session} does not exist in ${projectDir(cwd, io.env)}\n`)
    return 1
  }
  const files = typeof values.session === 'string'
    ? [traceFileOf(transcriptPath(cwd, values.session, io.env))].filter((f) => existsSync(f))
    : await traceFiles(projectDir(cwd, io.env))
  let records: ProvenanceRecord[] = []
  let from: string | undefined
  for (const file of subject === 'prompt' && typeof values.session !== 'string' ? files.slice(0, 1) : files) {
    records = (await readTrace(file)).filter((r) => r.subject === subject)
    from = file
    if (records.length > 0) break
  }
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify({ subject, file: records.length > 0 ? from : undefined, records }, null, 2)}\n`)
    return records.length > 0 ? 0 : 1
  }
  if (records.length === 0) {
    const where = files.length === 0 ? `no session of ${cwd} has a trace` : `no mod changed or decided it in ${files.length} session trace${files.length > 1 ? 's' : ''} of ${cwd}`
    io.stderr.write(`modloop: why ${subject}: ${where}\n`)
    return 1
  }
  const tool = records.find((r) => r.tool)?.tool
  io.stdout.write(`${subject}${tool ? ` (${tool})` : ''}: ${records.length} change${records.length > 1 ? 's' : ''} by mods, in the order they happened\n`)
  for (const r of records) io.stdout.write(`  ${describeRecord(r)}\n`)
  return 0
}
