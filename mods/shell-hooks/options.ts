import { z } from 'zod'
import { builtinOptions } from '../_shared/builtin-options.js'

/** The shell-hooks mod's options. Hooks themselves come from settings files, `--settings` and the config's `hooks`. */
export const shellHooksOptions = builtinOptions('shell-hooks', () => z.object({
  /** The user's home: `~/.claude/settings.json` is read there (default: CLAUDE_CONFIG_DIR, else the OS home). */
  home: z.string().optional(),
  /** The managed-policy directory; `false` reads none (default: the platform's). */
  managedDir: z.union([z.string(), z.literal(false)]).optional(),
  /** Which of the user, project and local settings files to read. */
  settingSources: z.array(z.enum(['user', 'project', 'local'])).default(['user', 'project', 'local']),
  /** Read `.claude/settings.json` at the git root when the start directory has none. */
  walkUpToGitRoot: z.boolean().default(false),
  /** Where the record of reviewed project hooks lives (default: $MODLOOP_HOME/trusted.json). */
  trustStore: z.string().optional(),
  /**
   * Leave out project-level hooks (`.claude/settings*.json`) whose fingerprint is not approved for
   * the workspace. Default: in interactive sessions (session.start `isInteractive`), whose front end
   * asks to approve new or changed ones before the session starts; headless runs them and reports them.
   */
  skipUnapprovedProjectHooks: z.boolean().optional(),
  /** Emit hook_started / hook_response messages for every hook (the `includeHookEvents` query option also turns this on). */
  includeHookEvents: z.boolean().default(false),
  /** Notification `idle_prompt` fires this long after a turn ends with no new prompt (0: never). */
  idleNotifyMs: z.number().int().min(0).default(60_000),
}))
export type ShellHooksOptions = z.output<typeof shellHooksOptions>
