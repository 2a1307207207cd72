import { z } from 'zod'
import { ModloopError } from '../../core/errors.js'
import { permissionModeSchema } from '../../core/permission-modes.js'

/**
 * What a job carries on the queue (pg-boss's `data`): the prompt, where to run it, the session it
 * runs as, and the session options `-p` would take. Checked when submitted and again when a worker
 * takes it (another version of modloop may have put it there).
 */
export const jobDataSchema = z.strictObject({
  prompt: z.string().min(1),
  /** The directory the session runs in, on the worker's machine. */
  cwd: z.string().min(1),
  /** The session the job runs as: made by submit (a new session) or named by `--resume`. */
  sessionId: z.uuid(),
  /** The session exists already: the job resumes it with the prompt. */
  resume: z.boolean().optional(),
  /** A distribution config (a path on the worker's machine, or a package name); else the worker's `--config`. */
  config: z.string().min(1).optional(),
  options: z.strictObject({
    model: z.string().min(1).optional(),
    maxTurns: z.number().int().positive().optional(),
    maxBudgetUsd: z.number().positive().optional(),
    permissionMode: permissionModeSchema.optional(),
    allowedTools: z.array(z.string()).optional(),
    disallowedTools: z.array(z.string()).optional(),
    appendSystemPrompt: z.string().optional(),
    /** A model script (its value, or a path on the worker's machine): the scripted model instead of the API. */
    script: z.unknown().optional(),
  }).default({}),
})

export type JobData = z.infer<typeof jobDataSchema>

export function parseJobData(value: unknown, jobId: string): JobData {
  const parsed = jobDataSchema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  throw new ModloopError('MODLOOP_ERR_JOB', `job ${jobId}: its data does not fit a modloop job: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`, { field: issue?.path.join('.') })
}
