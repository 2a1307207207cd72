import { ModloopError } from '../core/errors.js'
import type { Session } from '../core/loop/session.js'
import { spawnSubagent } from './subagent.js'
import type { SpawnRequest, CompleteRequest, ForkRequest, TaskEndSpec, TaskProgressSpec, TaskStartSpec } from '../core/mod/contracts.js'
import { complete, fork } from './complete.js'
import { checkComplete } from './complete-request.js'
import { configRows, configSet } from './model-controls.js'
import { launchOptionsProvider } from './launch-options.js'
import { sessionProviders } from './session-providers.js'
import { toolProviders } from './tool-providers.js'
import { askProvider } from './ask.js'
import type { CommandInfo } from '../core/loop/command.js'
import type { CommandRunResult, PromptSubmitResult } from '../core/events/types.js'
import { callerOf } from '../core/bus/watchdog.js'
import { attachmentBlocks } from './prompt-attachments.js'

/** Serves the `$` methods that belong to the loop: tools, session facts, prompts, turn control. */
export function installProviders(session: Session): void {
  const { host } = session
  host.provide({
    ...toolProviders(session),
    ...askProvider(session),
    ...sessionProviders(session),
    ...launchOptionsProvider(session),
    // Settles as its turn starts (spec mods §4), so a caller awaiting it inside a handler that
    // turn waits on (session.start, the running turn's own events) would wait forever: queue, don't await.
    'prompt.submit': (mod: string, args: { text: string; attachments?: unknown; asUser?: true }) => new Promise<PromptSubmitResult>((resolve, reject) => {
      if (session.ended) throw new ModloopError('MODLOOP_ERR_NOT_RUN', `${mod}: $.prompt.submit refused: the session has ended`, { mod })
      const content = attachmentBlocks(mod, args.attachments)
      const text = args.asUser ? args.text : `The ${mod} mod sent a message: ${args.text}`
      session.queued.push({ text, origin: { kind: 'plugin', name: mod, ...(args.asUser ? { asUser: true } : {}) }, ...(content.length > 0 ? { content } : {}), started: { resolve, reject } })
      // An idle session waiting for input runs it now (runtime/query.ts serves the queue).
      session.input?.poke()
    }),
    'command.register': (mod: string, spec: { name: string; description: string; argumentHint?: string; kind?: CommandInfo['kind'] }) => {
      if (!spec || !/^[A-Za-z0-9_:.-]{1,64}$/.test(spec.name ?? '')) {
        throw new ModloopError('MODLOOP_ERR_REGISTRATION', `${mod}: $.command.register needs a name of 1-64 of [A-Za-z0-9_:.-]`, { mod })
      }
      const taken = session.commands.get(spec.name)
      if (taken && taken.mod !== mod) throw new ModloopError('MODLOOP_ERR_REGISTRATION', `${mod}: "/${spec.name}" refused: ${taken.mod} registered it`, { mod })
      // Turned off (--disable-slash-commands), a command is accepted but never listed nor run.
      if (session.options.disableSlashCommands) return { command: spec.name }
      const kind = spec.kind === 'local' || spec.kind === 'prompt' || spec.kind === 'skill' ? spec.kind : undefined
      session.commands.set(spec.name, { name: spec.name, description: spec.description ?? '', argumentHint: spec.argumentHint, mod, ...(kind ? { kind } : {}) })
      return { command: spec.name }
    },
    'command.unregister': (mod: string, args: { command?: unknown }) => {
      const name = typeof args?.command === 'string' ? args.command : ''
      if (session.commands.get(name)?.mod !== mod) return { isRemoved: false }
      session.commands.delete(name)
      return { isRemoved: true }
    },
    'command.list': () => [...session.commands.values()].map((c) => ({ name: c.name, description: c.description, source: 'plugin', plugin: c.mod, ...(c.kind ? { kind: c.kind } : {}) })),
    // Only a command the session lists ($.command.list) is queued: a name nothing registered would
    // reach the model as a prompt reading "/name", or be answered "Unknown command", after the caller moved on.
    // It settles once the command ran, after the running turn (spec mods §4): called from a handler
    // that turn or the session's start waits on, it could only wait for itself, so it is refused.
    'command.run': (mod: string, args: { command: string; args?: string }) => new Promise<CommandRunResult>((resolve, reject) => {
      if (typeof args?.command !== 'string' || !session.commands.has(args.command)) {
        throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.command.run refused: this session has no command /${String(args?.command)} ($.command.list lists those it has)`, { mod, field: 'command' })
      }
      const text = `/${args.command}${args.args ? ` ${args.args}` : ''}`
      if (session.ended) throw new ModloopError('MODLOOP_ERR_NOT_RUN', `${mod}: $.command.run refused: the session has ended`, { mod })
      const owner = session.host.get(mod)?.$
      const held = (!session.started || session.turnId !== undefined) && owner ? callerOf(owner) : undefined
      if (held) {
        throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.command.run refused inside ${held.label}, a handler the ${session.started ? 'running turn' : 'session\'s start'} waits on: ${text} could only run after it; run it once the session is idle (from a $.clock.after callback, say)`, { mod })
      }
      session.queued.push({ text, origin: { kind: 'plugin', name: mod }, ran: { resolve, reject } })
      session.input?.poke()
    }),
    'config.set': (mod: string, args: { key?: unknown; value?: unknown }) => configSet(session, mod, args),
    'config.list': () => configRows(session),
    'model.complete': async (mod: string, req: CompleteRequest, options?: { signal?: AbortSignal }) => {
      checkComplete(mod, req)
      return complete(session, req, options?.signal)
    },
    'model.fork': (mod: string, req: ForkRequest, options?: { signal?: AbortSignal }) => {
      if (typeof req?.prompt !== 'string' || req.prompt === '') throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.model.fork needs { prompt }, a text that is not empty`, { mod })
      return fork(session, req, options?.signal)
    },
    // Resolves once the subagent started; `done` (a modloop addition) resolves to its final report.
    'agent.spawn': (_mod: string, req: SpawnRequest) => spawnSubagent(session, req),
    // The agent types a mod offers (the Agent tool's subagent_type), listed in init; the mod still spawns them.
    'agent.register': (mod: string, spec: { name?: unknown; description?: unknown }) => {
      if (typeof spec?.name !== 'string' || spec.name === '') throw new ModloopError('MODLOOP_ERR_REGISTRATION', `${mod}: $.agent.register needs { name }`, { mod })
      session.root.agentTypes.set(spec.name, { name: spec.name, description: typeof spec.description === 'string' ? spec.description : '', mod })
      return { agent: spec.name }
    },
    'agent.list': () => [...session.root.agentTypes.values()],
    // Tasks are the root's: a subagent's Agent call starts them beside the main conversation's.
    'task.start': (mod: string, spec: TaskStartSpec) => session.root.tasks.start(mod, spec),
    'task.end': (mod: string, spec: TaskEndSpec) => session.root.tasks.end(mod, spec),
    'task.progress': (mod: string, spec: TaskProgressSpec) => session.root.tasks.progress(mod, spec),
    'task.stop': (_mod: string, taskId: string) => session.root.tasks.stop(taskId),
    'task.list': () => session.root.tasks.list(),
    'task.notify': (mod: string, taskId: string, text: string) => session.root.tasks.notify(mod, taskId, text),
    // A turn named must be the running one: an abort meant for a turn that has ended must not cancel the next.
    // Async, so a refusal rejects (spec mods §4) and `.catch` on the call sees it.
    'turn.abort': async (mod: string, args?: { turnId?: unknown }) => {
      if (args?.turnId !== undefined && args.turnId !== session.turnId) {
        const running = session.turnId === undefined ? 'no turn is running' : `the running turn is ${session.turnId}`
        throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.turn.abort refused: turn ${String(args.turnId)} is not running (${running})`, { mod, field: 'turnId' })
      }
      session.turnAbort?.abort(new Error('a mod aborted the turn'))
    },
  })
}

