import type { SDKMessage } from '../../core/loop/messages.js'
import { resolveModelName, type QueryOptions } from '../../runtime/options.js'
import { settingsList } from '../../runtime/launch-options.js'
import type { ModApi } from '../../core/mod/api.js'
import type { PermissionModeOwner } from '../../core/mod/session-capabilities.js'
import type { PermissionMode } from '../../core/permission-modes.js'
import type { PermissionResult } from '../../core/tools/pipeline.js'
import { VERSION } from '../../core/version.js'
import { KEYS_HELP, type BackgroundTask } from './app.js'
import { appendHistory, historyFile, readHistory } from './history.js'
import { InputChannel } from './input-channel.js'
import { reviewProjectHooks } from './hooks-review.js'
import { reviewProjectServers } from './servers-review.js'
import { modsText } from './listings.js'
import { promptText } from './pending.js'
import { shellCommands } from './shell-commands.js'
import { permissionChooser, permissionsApi, planChooser, planText, rulesText } from './permission-ask.js'
import { questionAsk } from './question-ask.js'
import type { Chooser } from './chooser.js'
import { ASK_USER_TOOL } from '../ask-user/name.js'
import type { PermissionUpdate } from '../../core/events/types.js'
import { pickSession, resumable, showResumed } from './resume.js'
import { openConfigPanel } from './config-panel.js'
import type { InteractiveContext } from './surface.js'
import { onTermination } from './signals.js'
import { openTerminal } from './terminal.js'
import { describeError } from '../../core/errors.js'
import { SIDE_USAGE } from '../../runtime/side-question.js'
import { showSideQuestion, TurnStarting } from './side-question.js'
import { envTrue } from '../../core/env.js'
import { startStatusLine, type SessionStatusLine } from './status-line.js'
import { askLeave, settleLeave, type Leave } from './worktree-leave.js'
import { resumeCommand } from './resume-hint.js'

const MODES = ['default', 'acceptEdits', 'plan']

/**
 * The interactive session in the terminal: one modloop session at a time (a `/resume` ends
 * one and opens the picked one), driven by what is typed. `mod` is the name terminal-ui was
 * loaded under: each session's distribution connects this terminal to that mod. Returns the exit code.
 */
export async function runTerminalUi(ctx: InteractiveContext, mod: string): Promise<number> {
  const { options, io } = ctx
  const terminal = openTerminal(io)
  const { app, view, paint } = terminal
  const history = historyFile(options.cwd, io.env)
  app.editor.setHistory(await readHistory(history))
  const declined = new Set<string>()
  // The session running last: the one the exit tells how to come back to.
  let lastSession = ''
  // How a signal ends the running session; set while one runs.
  let stopSession: (() => void) | undefined
  // What the person chose at exit for the session's worktree; carried out once the terminal is given back.
  let leave: Leave | undefined
  let settle: Leave | undefined
  const termination = onTermination(() => {
    app.cancelAll()
    stopSession?.()
  }, () => terminal.restore(), io.stdout)
  void view.print(`${paint.bold('modloop')} ${paint.dim(`v${VERSION} · ${options.cwd}`)}\n${paint.dim('/help for commands and keys · Esc interrupts · Ctrl+D exits')}`)
  // A stray error the CLI caught is shown here, not written under the live screen; one of modloop's own ends the session.
  const unlisten = ctx.faults?.listen((text) => void view.print(paint.red(text.trimEnd())), () => termination.end(1))
  try {
    let prompt = ctx.prompt
    // The session a /resume left, while the one it opened has not started: where a failed open goes back to.
    let left: string | undefined
    const reopen = (id: string | undefined): QueryOptions => ({ ...options, resume: id, continue: undefined, forkSession: undefined, sessionId: undefined, resumeSessionAt: undefined })
    // `--resume` with no id: the picked session, as /resume opens it (--fork-session still forks it); none picked, a new one.
    let next: QueryOptions = ctx.pickResume ? { ...options, resume: await pickSession(app, view, paint, options.cwd, io.env, '', '', '--resume', ctx.resumeSearch) } : options
    for (;;) {
      const outcome = await runSession(next, prompt)
      prompt = undefined
      const signalled = termination.code()
      if (signalled !== undefined) return signalled
      if (outcome.resume !== undefined) {
        left = outcome.left
        next = reopen(outcome.resume)
        continue
      }
      if (outcome.failed && left !== undefined) {
        // The picked session could not be opened: go on in the one that was left (a new one if it took no prompt).
        next = reopen(await resumable(left, options.cwd, io.env) ? left : undefined)
        left = undefined
        continue
      }
      // Only the user's own exit asks: a session that could not run, or a signal, leaves the worktree as it is.
      if (!outcome.failed) settle = leave
      return outcome.code
    }
  } finally {
    unlisten?.()
    await terminal.close()
    termination.dispose()
    // Below the screen given back, as Claude Code does: only a session that took a prompt can be resumed,
    // and one whose worktree was kept goes back into it.
    const into = settle?.keep ? settle.worktree.name : undefined
    if (lastSession && await resumable(lastSession, options.cwd, io.env)) io.stdout.write(`Resume this session with:\n${resumeCommand(lastSession, ctx.resumeFlags, into, io.stdout.columns)}\n`)
    if (settle) await settleLeave((line) => io.stdout.write(`${line}\n`), paint, settle, io.env)
  }

  async function runSession(opts: QueryOptions, prompt: string | undefined): Promise<{ code: number; resume?: string; left?: string; failed?: boolean }> {
    const input = new InputChannel()
    let exiting = false
    // `/exit` was typed: it is asked about (confirmExit) once its turn has ended.
    let exitRequested = false
    let askingExit = false
    const starting = new TurnStarting()
    let resumeAsked: string | undefined
    let picked: string | undefined
    let failed = false
    let sessionId = ''
    const say = (text: string, level: 'info' | 'warn' | 'error' = 'info') =>
      void view.print(level === 'error' ? paint.red(text) : level === 'warn' ? paint.yellow(text) : paint.dim(text))
    let dist: Awaited<ReturnType<InteractiveContext['load']>>
    try {
      dist = await ctx.load((name, level, text) => { if (level !== 'debug') say(`${name}: ${text}`, level === 'info' ? 'info' : level) })
    } catch (err) {
      say(`modloop: the distribution could not be loaded: ${describeError(err)}`, 'error')
      return { code: 1, failed: true }
    }
    const { host, configFile } = dist
    const surface = host.capabilities.get('surface.terminal')
    if (typeof surface?.connect !== 'function') {
      say(`modloop: the distribution no longer loads the ${mod} mod, which this terminal runs`, 'error')
      await host.close()
      return { code: 1, failed: true }
    }
    // Before the session starts: its hooks are fixed when shell-hooks starts with it.
    await reviewProjectHooks(app, view, paint, { dist, cwd: options.cwd, settings: settingsList(opts.settings), env: io.env, declined })
    await reviewProjectServers(app, view, paint, { dist, cwd: options.cwd, env: io.env, trustWorkspace: opts.trustWorkspace, declined })
    if (termination.code() !== undefined) {
      await host.close()
      return { code: 0 }
    }
    let $: ModApi | undefined
    let statusLine: SessionStatusLine | undefined
    // A mode picked with Shift+Tab before the session started; it is set once it has.
    let modeChosen: string | undefined
    // The mode has one owner (the `permissionMode` capability); Shift+Tab switches it there.
    const ownerOf = (api: ModApi | undefined) => api?.capability.use('permissionMode')
    const setMode = (owner: PermissionModeOwner, mode: string) =>
      Promise.resolve().then(() => owner.setMode(mode as PermissionMode)).catch((err: Error) => say(`the mode could not be set: ${err.message}`, 'error'))
    // Claude Code's CLAUDE_CODE_SKIP_PROMPT_HISTORY (settings `env` included) keeps prompts off disk, as
    // transcripts do: what is typed before the session has its settings waits for them.
    const unsaved: string[] = []
    const keep = (entry: string) => {
      if (!$) unsaved.push(entry)
      else if (!envTrue($.env.get('CLAUDE_CODE_SKIP_PROMPT_HISTORY'))) void appendHistory(history, entry).catch(() => {})
    }
    surface.connect({
      attach: (api, e) => {
        $ = api
        app.$ = api
        view.cwd = () => api.session.cwd()
        for (const entry of unsaved.splice(0)) keep(entry)
        sessionId = e.sessionId
        lastSession = e.sessionId
        const owner = ownerOf(api)
        if (owner && modeChosen) void setMode(owner, modeChosen)
        else if (!modeChosen) app.mode = owner?.mode() ?? opts.permissionMode ?? 'default'
        if (owner) modeChosen = undefined
        void app.refreshCommands()
        // A resumed session goes on from the totals its transcript carried, not from nothing (nor from the session left).
        view.totals.costUsd = costOf(api)
        // A new conversation (the first, or one /clear began) holds nothing yet: the context the last one used is not its.
        if (!e.resumed) view.totals.contextTokens = 0
        if (e.resumed) showResumed(view, paint, api, e.sessionId)
        // A /clear starts a session afresh: its status line too.
        statusLine?.dispose()
        const addedDirs = (opts.additionalDirectories ?? []).map(String)
        statusLine = startStatusLine({ app, $: api, cwd: options.cwd, say, model: () => view.totals.model, place: { sessionId: e.sessionId, transcriptPath: e.transcriptPath, projectDir: options.cwd, addedDirs } })
      },
      promptTaken: () => {
        starting.taken()
        const text = app.pending.takeStarting()
        if (text !== undefined) void view.print(promptText(text, paint))
        app.redraw()
      },
      turnStarted: () => starting.started(),
      toolOutcome: (id, outcome, ms) => view.toolOutcome(id, outcome, ms),
      keysHelp: () => KEYS_HELP,
      modsText: () => modsText(host, configFile),
      requestResume: (id) => { resumeAsked = id },
      requestExit: () => { exitRequested = true },
      openConfig: () => {
        if ($) void openConfigPanel(app, $, say).catch((err: unknown) => say(`the settings panel failed: ${describeError(err)}`, 'error'))
      },
    })
    // The time a call waits for the person's answer is not the call's: its line leaves it out.
    const canUseTool = (tool: string, toolInput: Record<string, unknown>, o: { signal: AbortSignal; decisionReason?: string; toolUseID?: string; suggestions?: PermissionUpdate[] }) => {
      view.asking(o.toolUseID, true)
      return ask(tool, toolInput, o).finally(() => view.asking(o.toolUseID, false))
    }
    const ask = (tool: string, toolInput: Record<string, unknown>, o: { signal: AbortSignal; decisionReason?: string; suggestions?: PermissionUpdate[] }) =>
      new Promise<PermissionResult>((resolve) => {
        if (tool === 'ExitPlanMode') void view.print(paint.bold(planText(toolInput)))
        // The plan approval offers the modes to leave plan mode for, not a rule to save.
        const chooser: { close(): void } = tool === 'ExitPlanMode' ? openPlan() : tool === ASK_USER_TOOL ? openQuestions() : openAsk()
        // AskUserQuestion's ask is its questions, one chooser each, not a yes or no.
        function openQuestions() {
          let current: Chooser<number> | undefined
          questionAsk(toolInput, (c) => { current = app.open(c) }, (result, cancelled) => {
            o.signal.removeEventListener('abort', onAbort)
            if (cancelled) q.interrupt()
            resolve(result)
          })
          return { close: () => { if (current) app.close(current) } }
        }
        function openPlan() {
          const c = app.open(planChooser((result, pick) => {
            o.signal.removeEventListener('abort', onAbort)
            if (pick === 'cancel') q.interrupt()
            resolve(result)
          }))
          return { close: () => app.close(c) }
        }
        function openAsk() {
          const c = app.open(permissionChooser(tool, toolInput, o.decisionReason, (result, pick, rules) => {
            o.signal.removeEventListener('abort', onAbort)
            if (pick === 'cancel') q.interrupt()
            if (pick !== 'always') return resolve(result)
            const api = permissionsApi($)
            if (!api) {
              say('the permissions mod is not loaded: allowed this once, no rule saved', 'warn')
              return resolve(result)
            }
            api.persistUpdate({ type: 'addRules', rules, behavior: 'allow', destination: 'localSettings' })
              .then((r) => say(`saved: allow ${rulesText(rules)}${r.file ? ` in ${r.file}` : ''}`))
              .catch((err: Error) => say(`the rule could not be saved: ${err.message}`, 'error'))
              .finally(() => resolve(result))
          }, o.suggestions, $?.session.cwd()))
          return { close: () => app.close(c) }
        }
        const onAbort = () => {
          chooser.close()
          resolve({ behavior: 'deny', message: 'interrupted' })
        }
        o.signal.addEventListener('abort', onAbort, { once: true })
      })
    const { query } = await import('../../runtime/query.js')
    const q = query({
      prompt: input,
      options: {
        ...opts, host, model: opts.model ?? dist.config.model, includePartialMessages: true, canUseTool,
        surface: 'terminal', isInteractive: true, log: (line) => say(line, 'warn'),
      },
    })
    function endSession() {
      exiting = true
      if (app.busy) void q.interrupt()
      input.end()
      // Background tasks would hold the session open: leaving ends them with it.
      if (app.tasks.length > 0) void q.close()
    }
    // Leaving a worktree session (`--worktree`'s, or one EnterWorktree made) asks what becomes of the worktree first; Esc there calls the exit off.
    async function confirmExit(): Promise<boolean> {
      const w = $?.capability.use('enteredWorktree')?.(sessionId) ?? ctx.worktree
      if (!w) return true
      if (askingExit) return false
      askingExit = true
      try {
        leave = await askLeave(app, w, io.env)
        return leave !== undefined
      } finally {
        askingExit = false
      }
    }
    const shells = shellCommands({ app, view, paint, input, say, runner: () => $?.capability.use('userShell')?.(sessionId) })
    app.actions = {
      shell: (command) => {
        keep(`!${command}`)
        app.editor.remember(`!${command}`)
        shells.add(command)
      },
      submit: (text, priority) => {
        keep(text)
        app.editor.remember(text)
        // Shown queued until a turn takes it (promptTaken) or it joins the running one.
        app.pending.add(text, priority)
        if (!app.busy) starting.sent()
        app.busy = true
        input.push(text, priority)
      },
      interrupt: () => void (shells.stop() || q.interrupt()),
      exit: () => void confirmExit().then((go) => { if (go) endSession() }),
      stopTask: (taskId) => void q.stopTask(taskId).catch((err: unknown) => say(`the task could not be stopped: ${describeError(err)}`, 'error')),
      sideQuestion: (question) => {
        keep(`/btw ${question}`.trimEnd())
        app.editor.remember(`/btw ${question}`.trimEnd())
        if (!question) return say(SIDE_USAGE, 'warn')
        showSideQuestion(app, q, question, paint, starting.done)
      },
      cycleMode: () => {
        const owner = ownerOf($)
        if (!owner && !host.providerOf('permissionMode')) return say('no loaded mod owns permission modes: there is no mode to change', 'warn')
        const modes = options.permissionMode === 'bypassPermissions' ? [...MODES, 'bypassPermissions'] : MODES
        const mode = modes[(modes.indexOf(app.mode) + 1) % modes.length]!
        app.mode = mode
        if (owner) void setMode(owner, mode)
        else modeChosen = mode
        statusLine?.refresh()
        app.redraw()
      },
    }
    // A signal ends the session unasked: its worktree stays as it is.
    stopSession = endSession
    if (termination.code() !== undefined) stopSession()
    view.totals.model = resolveModelName(opts, dist.config.model)
    if (prompt?.trim()) app.actions.submit(prompt, 'next')
    app.redraw()
    try {
      for await (const m of q as AsyncIterable<SDKMessage>) {
        if (m.type === 'system' && m.subtype === 'init') app.busy = true
        view.onMessage(m)
        statusLine?.onMessage(m)
        // The loop joins the waiting `next` prompts to the turn once a tool round is answered.
        if (isToolRound(m) && !view.busyWithTopLevelTools) {
          for (const text of app.pending.takeJoining()) void view.print(promptText(text, paint))
        }
        if (m.type === 'system' && m.subtype === 'status' && typeof m.permissionMode === 'string') app.mode = m.permissionMode
        if (m.type === 'system' && m.subtype === 'background_tasks_changed' && Array.isArray(m.tasks)) {
          app.tasks = m.tasks as BackgroundTask[]
          app.redraw()
        }
        if (m.type !== 'result') continue
        starting.ended()
        app.busy = false
        shells.turnEnded()
        await app.refreshCommands()
        if (exitRequested) {
          exitRequested = false
          if (await confirmExit()) exiting = true
        }
        if (exiting) input.end()
        if (resumeAsked !== undefined) {
          picked = await pickSession(app, view, paint, options.cwd, io.env, resumeAsked, sessionId)
          resumeAsked = undefined
          if (termination.code() !== undefined) picked = undefined
          if (picked) input.end()
        }
      }
    } catch (err) {
      say(`modloop: ${describeError(err)}`, 'error')
      failed = true
    } finally {
      stopSession = undefined
      statusLine?.dispose()
      surface.connect(undefined)
      app.actions = undefined
      app.busy = false
      app.tasks = []
      app.pending.clear()
      starting.ended()
      await host.close()
      app.$ = undefined
    }
    if (failed) return { code: 1, failed }
    return picked ? { code: 0, resume: picked, left: sessionId } : { code: 0 }
  }
}

function isToolRound(m: SDKMessage): boolean {
  return m.type === 'user' && !m.parent_tool_use_id && Array.isArray(m.message.content) && m.message.content.some((b) => b.type === 'tool_result')
}

function costOf($: ModApi): number {
  try {
    const usd = ($.session.usage() as { cost?: { usd?: unknown } } | undefined)?.cost?.usd
    return typeof usd === 'number' ? usd : 0
  } catch {
    return 0
  }
}
