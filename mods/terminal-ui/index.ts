import { STAGE } from '../../core/bus/types.js'
import type { ModApi } from '../../core/mod/api.js'
import { defineMod } from '../../core/mod/define.js'
import type { InteractiveSurface } from './surface.js'
import type { Outcome } from './tool-view.js'
import '../_shared/user-shell.js'
import { describeError } from '../../core/errors.js'

/** What the in-session half needs from the terminal that runs the session. */
export interface UiBridge {
  /** The session started: `$` works from now on. */
  attach($: ModApi, e: { sessionId: string; resumed: boolean; transcriptPath: string }): void
  /** A turn took a prompt of the terminal's input (prompt.submit from the input stream). */
  promptTaken(): void
  /** A turn's prompt is in the conversation (turn.start). */
  turnStarted(): void
  toolOutcome(toolUseId: string, outcome: Outcome, ms: number): void
  keysHelp(): string
  modsText(): string
  /** `/resume [id]`: the terminal picks and opens that session once this turn ends. */
  requestResume(id: string): void
  requestExit(): void
  /** `/config` alone: the settings panel opens over the prompt. */
  openConfig(): void
}

/** terminal-ui's surface (the `surface.terminal` capability): the terminal connects each session's bridge through it. */
export interface TerminalSurface extends InteractiveSurface {
  connect(bridge: UiBridge | undefined): void
}

const OWN = [
  { name: 'resume', description: 'Pick an earlier session of this directory and go on with it', argumentHint: '[session id]' },
  { name: 'exit', description: 'Leave modloop (also Ctrl+D)' },
]
// Served by the commands mod too; here they say more, because the terminal knows the whole mod stack.
const SHARED = [
  { name: 'help', description: 'List the slash commands and keys' },
  { name: 'mods', description: 'Show the loaded mods and load errors' },
]

interface Listed { name: string; description: string; plugin?: string }

/**
 * The interactive terminal. It provides the interactive surface `surface.terminal` (`modloop`
 * with no `-p` runs it); in a session the terminal runs, it times every tool call beneath the other mods
 * (to tell ok, error and denied apart), notes when a turn takes a typed prompt, and serves the
 * terminal's slash commands through command.run like any other mod's. In a session no terminal
 * runs (`-p`, query()) every handler only passes through.
 */
export default defineMod({
  name: 'terminal-ui',
  description: 'The interactive terminal: prompt, rendering, permission asks, terminal commands',
  uses: { permissions: 'optional', permissionMode: 'optional', userShell: 'optional', statusLineSetting: 'optional', enteredWorktree: 'optional', outputStyleList: 'optional' },
  provides: ['surface.terminal'],
  register(on, _options, $) {
    let bridge: UiBridge | undefined
    const surface: TerminalSurface = {
      run: async (ctx) => (await import('./run.js')).runTerminalUi(ctx, $.plugin.name),
      connect: (b) => { bridge = b },
    }
    $.capability.provide('surface.terminal', surface)

    // Outermost: the terminal attaches once every other mod has set the session up (the permissions API among them).
    on('session.start', async ($, e, next) => {
      const result = await next(e)
      if (!bridge) return result
      for (const spec of [...OWN, ...SHARED]) {
        try {
          $.command.register(spec)
        } catch (err) {
          // /help and /mods may already belong to the commands mod; the handler below still answers first.
          if (OWN.includes(spec)) $.log.warn(describeError(err))
        }
      }
      bridge.attach($, { sessionId: e.sessionId, resumed: e.resumedFrom !== undefined, transcriptPath: e.transcriptPath })
      return result
    }, { stage: STAGE.guard })

    // Outermost, so a prompt another mod drops is still seen as taken.
    on('prompt.submit', ($, e, next) => {
      if (bridge && e.origin.kind === 'sdk') bridge.promptTaken()
      return next(e)
    }, { stage: STAGE.guard })

    on('turn.start', ($, e, next) => {
      bridge?.turnStarted()
      return next(e)
    })

    on('tool.call', async ($, e, next) => {
      if (!bridge) return next(e)
      const started = performance.now()
      const r = await next(e)
      const outcome: Outcome = 'deny' in r ? 'denied' : r.isError ? 'error' : 'ok'
      bridge?.toolOutcome(e.tool_use_id, outcome, performance.now() - started)
      return r
    })

    on('command.run', async ($, e, next) => {
      if (!bridge) return next(e)
      switch (e.command) {
        case 'help': return { output: await helpText($, bridge) }
        case 'mods': return { output: bridge.modsText() }
        case 'resume':
          bridge.requestResume(e.args.trim())
          return { output: '' }
        case 'exit':
          bridge.requestExit()
          return { output: '' }
        // With a key=value it is the commands mod's text form, as in -p.
        case 'config':
        case 'settings':
          if (e.args.trim()) return next(e)
          bridge.openConfig()
          return { output: '' }
        default: return next(e)
      }
    }, { before: 'commands' })
  },
})

async function helpText($: ModApi, bridge: UiBridge): Promise<string> {
  const commands = (await $.command.list()) as Listed[]
  const width = Math.max(0, ...commands.map((c) => c.name.length)) + 2
  const rows = [...commands].sort((a, b) => a.name.localeCompare(b.name))
    .map((c) => `  /${c.name.padEnd(width)}${c.description || '(no description)'}${c.plugin ? `  [${c.plugin}]` : ''}`)
  return ['Slash commands (Tab completes):', ...rows, '', bridge.keysHelp()].join('\n')
}
