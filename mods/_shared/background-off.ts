import { envTrue } from '../../core/env.js'

/**
 * Whether the session runs no work in the background (`CLAUDE_CODE_DISABLE_BACKGROUND_TASKS`), as
 * in Claude Code: Bash and Agent lose `run_in_background`, a command past its timeout is stopped
 * rather than moved there, and every subagent is waited for.
 */
export const backgroundOff = (env: Readonly<Record<string, string | undefined>>): boolean => envTrue(env.CLAUDE_CODE_DISABLE_BACKGROUND_TASKS)
