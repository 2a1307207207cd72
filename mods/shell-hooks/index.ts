import { defineMod } from '../../core/mod/define.js'
import type { ModApi } from '../../core/mod/api.js'
import type { HookBridge } from './bridge.js'
import { shellHooksOptions } from './options.js'
import { registerHooksCommand } from './hooks-command.js'
import { registerIdleHooks } from './idle-hooks.js'
import { registerModelHooks } from './model-hooks.js'
import { registerPermissionHooks } from './permission-hooks.js'
import { registerSessionHooks } from './session-hooks.js'
import { prepareWhileStreaming } from '../_shared/while-streaming.js'
import { registerToolHooks } from './tool-hooks.js'
import { registerTurnHooks } from './turn-hooks.js'
import { registerWorktreeHooks } from './worktree-hooks.js'
import { fireTaskHook } from './task-hooks.js'
import { fireElicitationHook } from './elicitation-hooks.js'
import '../_shared/task-hooks.js'
import '../_shared/elicitation-hooks.js'

export { projectHookFingerprints, approveProjectHooks, fingerprintOf, trustStorePath } from './trust.js'
export type { ProjectHookFingerprint } from './trust.js'

/**
 * Shell hooks: runs the settings hooks people configure for Claude Code — `~/.claude/settings.json`,
 * `.claude/settings.json`, `.claude/settings.local.json`, `--settings`, the modloop config's `hooks`
 * and plugins' `hooks/hooks.json` — unchanged, at the matching points of the loop, with the stdin
 * JSON, exit codes and JSON output of the settings-hooks protocol (hooks-runner does the protocol;
 * this mod maps it onto events). docs/hooks.md lists each event and what of it is honoured.
 */
export default defineMod({
  name: 'shell-hooks',
  description: 'Runs settings hooks (.claude/settings.json and friends) at the loop events',
  options: shellHooksOptions,
  // The config's `hooks` (and plugins') reach it as the loader's `configHooks` capability.
  configKeys: { hooks: true },
  provides: ['hookEnvFiles', 'taskHooks', 'elicitationHooks'],
  uses: {
    configHooks: 'optional', permissions: 'optional', permissionMode: 'optional', commands: 'optional', transcripts: 'optional',
    memory: 'optional', agentHooks: 'optional', shellCwd: 'optional', 'toolOutput.*': 'optional', settingsFiles: 'optional',
  },
  register(on, opts, $) {
    const bridges = new Map<string, HookBridge>()
    $.capability.provide('hookEnvFiles', (sessionId) => [...(bridges.get(sessionId)?.envFiles ?? [])])
    $.capability.provide('taskHooks', (req) => fireTaskHook(bridges.get(req.sessionId), req))
    $.capability.provide('elicitationHooks', (req) => fireElicitationHook(bridges.get(req.sessionId), req))
    const bridgeOf = ($: ModApi) => bridges.get($.session.id() as string)
    registerSessionHooks(on, opts, bridges, bridgeOf)
    registerTurnHooks(on, bridgeOf)
    registerToolHooks(on, bridgeOf)
    registerPermissionHooks(on, bridgeOf)
    registerModelHooks(on, bridgeOf)
    registerWorktreeHooks(on, bridgeOf)
    registerIdleHooks(on, opts.idleNotifyMs, bridgeOf)
    // While the model streams, the shell for the next command hook starts (hooks-runner's SpareSh).
    prepareWhileStreaming(on, ($) => bridgeOf($)?.runner.spare)
    registerHooksCommand(on, opts)
    return async () => {
      for (const b of bridges.values()) await b.close()
      bridges.clear()
    }
  },
})
