import { emitKeypressEvents } from 'node:readline'
import type { SDKMessage } from '../../core/loop/messages.js'
import { resolveModelName, type QueryOptions } from '../../core/loop/options.js'
import type { ModApi } from '../../core/mod/api.js'
import { ModHost } from '../../core/mod/host.js'
import type { PermissionResult } from '../../core/tools/pipeline.js'
import { VERSION } from '../../core/version.js'
import { App, KEYS_HELP, type Key } from './app.js'
import { painter } from './color.js'
import { appendHistory, historyFile, readHistory } from './history.js'
import { InputChannel } from './input-channel.js'
import { hooksText, modsText } from './listings.js'
import { MessageView } from './message-view.js'
import { terminalUiMod } from './mod.js'
import { permissionChooser, permissionsApi, ruleText } from './permission-ask.js'
import { pickSession, showResumed } from './resume.js'
import { Screen } from './screen.js'
import { askTrust } from './trust-ask.js'

export interface TerminalIo {
  stdin: NodeJS.ReadStream
  stdout: NodeJS.WriteStream
  env: Record<string, string | undefined>
}

const MODES = ['default', 'acceptEdits', 'plan']

/**
 * The interactive session in the terminal: one modloop session at a time (a `/resume` ends
 * one and opens the picked one), driven by what is typed. Returns the exit code.
 */
export async function runTerminalUi(options: QueryOptions & { cwd: string }, io: TerminalIo, firstPrompt?: string): Promise<number> {
  const paint = painter(io.env)
  const screen = new Screen(io.stdout)
  const app = new App(screen, paint, new MessageView(screen, paint, () => app.redraw()))
  const view = app.view
  const onKey = (str: string | undefined, key: Key | undefined) => app.onKey(str, key)
  const onResize = () => app.redraw()
  emitKeypressEvents(io.stdin)
  io.stdin.setRawMode(true)
  io.stdin.on('keypress', onKey)
  io.stdin.resume()
  io.stdout.on('resize', onResize)
  // Bracketed paste: a pasted newline is text, not Enter.
  io.stdout.write('\u001b[?2004h')
  const ticker = setInterval(() => {
    if (!app.busy && !view.busyWithTools) return
    view.tick()
    app.redraw()
  }, 100)
  const history = historyFile(options.cwd, io.env)
  app.editor.setHistory(await readHistory(history))
  void view.print(`${paint.bold('modloop')} ${paint.dim(`v${VERSION} · ${options.cwd}`)}\n${paint.dim('/help for commands and keys · Esc interrupts · Ctrl+D exits')}`)
  try {
    if (!(await askTrust(app, options.cwd, io.env))) {
      await view.print(paint.yellow('Not trusted: nothing of this folder was loaded. Run modloop again to decide anew, or `modloop trust`.'))
      return 1
    }
    let next: QueryOptions = options
    let prompt = firstPrompt
    for (;;) {
      const outcome = await runSession(next, prompt)
      prompt = undefined
      if (outcome.resume === undefined) return outcome.code
      next = { ...options, resume: outcome.resume, continue: undefined, forkSession: undefined, sessionId: undefined, resumeSessionAt: undefined }
    }
  } finally {
    clearInterval(ticker)
    await view.settled()
    io.stdin.off('keypress', onKey)
    io.stdout.off('resize', onResize)
    io.stdin.setRawMode(false)
    io.stdin.pause()
    screen.release()
    io.stdout.write('\u001b[?2004l')
  }

  async function runSession(opts: QueryOptions, prompt: string | undefined): Promise<{ code: number; resume?: string }> {
    const input = new InputChannel()
    let exiting = false
    let resumeAsked: string | undefined
    let picked: string | undefined
    let sessionId = ''
    const say = (text: string, level: 'info' | 'warn' | 'error' = 'info') =>
      void view.print(level === 'error' ? paint.red(text) : level === 'warn' ? paint.yellow(text) : paint.dim(text))
    const host = new ModHost({ strict: opts.strictMods, log: (mod, level, text) => { if (level !== 'debug') say(`${mod}: ${text}`, level === 'info' ? 'info' : level) } })
    let dist: Awaited<ReturnType<typeof import('../../core/loader/index.js')['loadDistribution']>> | undefined
    try {
      const { loadDistribution } = await import('../../core/loader/index.js')
      const specs = (opts.mods ?? []).filter((m): m is string => typeof m === 'string')
      dist = await loadDistribution({ cwd: options.cwd, configPath: opts.config, extraMods: specs, strict: opts.strictMods, host })
    } catch (err) {
      say(`modloop: the distribution could not be loaded: ${(err as Error).message}`, 'error')
      return { code: 1 }
    }
    const configHooks = dist.hooks
    const configFile = dist.configFile
    let $: ModApi | undefined
    const bridge = terminalUiMod({
      attach: (api, e) => {
        $ = api
        app.$ = api
        sessionId = e.sessionId
        app.mode = (permissionsApi(api) as { mode?: () => string } | undefined)?.mode?.() ?? opts.permissionMode ?? 'default'
        void app.refreshCommands()
        if (e.resumed) showResumed(view, paint, api, e.sessionId)
      },
      toolOutcome: (id, outcome, ms) => view.toolOutcome(id, outcome, ms),
      keysHelp: () => KEYS_HELP,
      modsText: () => modsText(host, configFile),
      hooksText: () => hooksText(options.cwd, io.env, configHooks),
      requestResume: (id) => { resumeAsked = id },
      requestExit: () => { exiting = true },
    })
    const canUseTool = (tool: string, toolInput: Record<string, unknown>, o: { signal: AbortSignal; decisionReason?: string }) =>
      new Promise<PermissionResult>((resolve) => {
        const chooser = app.open(permissionChooser(tool, toolInput, o.decisionReason, (result, pick, rule) => {
          o.signal.removeEventListener('abort', onAbort)
          if (pick === 'cancel') q.interrupt()
          if (pick !== 'always') return resolve(result)
          const api = permissionsApi($)
          if (!api) {
            say('the permissions mod is not loaded: allowed this once, no rule saved', 'warn')
            return resolve(result)
          }
          api.persistUpdate({ type: 'addRules', rules: [rule], behavior: 'allow', destination: 'localSettings' })
            .then((r) => say(`saved: allow ${ruleText(rule)}${r.file ? ` in ${r.file}` : ''}`))
            .catch((err: Error) => say(`the rule could not be saved: ${err.message}`, 'error'))
            .finally(() => resolve(result))
        }))
        const onAbort = () => {
          app.close(chooser)
          resolve({ behavior: 'deny', message: 'interrupted' })
        }
        o.signal.addEventListener('abort', onAbort, { once: true })
      })
    const { query } = await import('../../core/loop/query.js')
    const q = query({
      prompt: input,
      options: {
        ...opts, host, model: opts.model ?? dist.config.model, includePartialMessages: true, canUseTool,
        mods: [bridge], log: (line) => say(line, 'warn'),
      },
    })
    app.actions = {
      submit: (text, priority) => {
        void appendHistory(history, text).catch(() => {})
        app.editor.remember(text)
        const queued = app.busy && priority !== 'now'
        void view.print(`${paint.bold('›')} ${text.split('\n').join('\n  ')}${queued ? paint.dim('  (queued)') : ''}`)
        app.busy = true
        input.push(text, priority)
      },
      interrupt: () => void q.interrupt(),
      exit: () => {
        exiting = true
        if (app.busy) void q.interrupt()
        input.end()
      },
      cycleMode: () => {
        const api = permissionsApi($)
        if (!api) return say('no permissions mod is loaded: there is no mode to change', 'warn')
        const modes = options.permissionMode === 'bypassPermissions' ? [...MODES, 'bypassPermissions'] : MODES
        const mode = modes[(modes.indexOf(app.mode) + 1) % modes.length]!
        app.mode = mode
        api.persistUpdate({ type: 'setMode', mode, destination: 'session' }).catch((err: Error) => say(`the mode could not be set: ${err.message}`, 'error'))
        app.redraw()
      },
    }
    view.totals.model = resolveModelName(opts, dist.config.model)
    if (prompt?.trim()) app.actions.submit(prompt, 'next')
    app.redraw()
    try {
      for await (const m of q as AsyncIterable<SDKMessage>) {
        if (m.type === 'system' && m.subtype === 'init') app.busy = true
        view.onMessage(m)
        if (m.type !== 'result') continue
        app.busy = false
        await app.refreshCommands()
        if (exiting) input.end()
        if (resumeAsked !== undefined) {
          picked = await pickSession(app, view, paint, options.cwd, io.env, resumeAsked, sessionId)
          resumeAsked = undefined
          if (picked) input.end()
        }
      }
    } catch (err) {
      say(`modloop: ${(err as Error).message}`, 'error')
    } finally {
      app.actions = undefined
      app.busy = false
      await host.close()
      app.$ = undefined
    }
    return picked ? { code: 0, resume: picked } : { code: 0 }
  }
}
