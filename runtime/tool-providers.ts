import type { z } from 'zod'
import { ModloopError } from '../core/errors.js'
import type { Provider } from '../core/mod/build-api.js'
import { INPUT_ON_FIRST_USE, type Tool, type ToolTraits } from '../core/tools/tool.js'
import { runToolCall } from '../core/tools/pipeline.js'
import { uuid } from '../core/loop/messages.js'
import type { Session } from '../core/loop/session.js'
import type { ToolRegistration } from '../core/mod/contracts.js'

/** The `$.tool` methods: mods register, remove, list, call and check the session's tools. */
export function toolProviders(session: Session): Record<string, Provider> {
  const { host } = session
  return {
    'tool.register': (mod: string, spec: ToolRegistration) => {
      if (!spec || typeof spec.name !== 'string' || typeof spec.description !== 'string') {
        throw new ModloopError('MODLOOP_ERR_REGISTRATION', `${mod}: $.tool.register needs { name, description }`, { mod })
      }
      // A mod's name may be a package's (`@acme/tools`); a tool name holds only [A-Za-z0-9_-], as MCP servers' names are reduced.
      const name = spec.call ? spec.name : `mcp__${mod.replace(/[^A-Za-z0-9_-]/g, '_')}__${spec.name}`
      // Checked here, where the mod is known: a plain object as `input` would fail at the first call or listing.
      if (spec.input !== undefined && !isZodSchema(spec.input)) {
        throw new ModloopError('MODLOOP_ERR_REGISTRATION', `${mod}: tool "${spec.name}": input must be a zod schema; give a plain JSON Schema as inputSchema instead`, { mod })
      }
      // The `tools` option picks the built-in tools offered; a tool it leaves out is not there at all.
      if (!offered(session, [name, ...(spec.aliases ?? [])], spec.traits)) return Promise.resolve({ tool: name, isOffered: false })
      const readOnly = spec.isReadOnly
      // modloop's own tools give their zod input as its builder: `input` reads it, so nothing builds it before a call is validated.
      const build = (spec as { [INPUT_ON_FIRST_USE]?: () => z.ZodType })[INPUT_ON_FIRST_USE]
      const tool: Tool = {
        name, mod, description: spec.description, input: spec.input, ...(spec.traits ? { traits: { ...spec.traits } } : {}),
        // Beside a zod input, a JSON Schema given is what the model is shown: its conversion made ahead of time.
        jsonSchema: spec.input || build ? spec.jsonSchema ?? spec.inputSchema : spec.inputSchema ?? spec.jsonSchema ?? { type: 'object' },
        isReadOnly: typeof readOnly === 'function' ? readOnly : () => readOnly === true,
        ...(spec.resolveInput ? { resolveInput: spec.resolveInput } : {}),
        ...(spec.coerceInput ? { coerceInput: spec.coerceInput } : {}),
        call: spec.call ?? (() => {
          const message = `${name}: no tool.call handler of ${mod} answered this call`
          host.unanswered.push({ mod, event: 'tool.call', method: 'tool.register', message })
          return { isError: true, result: message }
        }),
      }
      if (build) Object.defineProperty(tool, 'input', { get: build, enumerable: true })
      session.tools.register(tool)
      for (const alias of spec.aliases ?? []) session.tools.alias(alias, name)
      session.describeCache.delete(name)
      return Promise.resolve({ tool: name })
    },
    // Only the mod that registered a tool may remove it (e.g. when an MCP server's list changes).
    'tool.unregister': (mod: string, args: { tool: string }) => {
      const tool = session.tools.get(args?.tool)
      if (!tool || tool.mod !== mod || tool.name !== args.tool) return Promise.resolve({ isRemoved: false })
      session.tools.unregister(tool.name)
      session.describeCache.delete(tool.name)
      return Promise.resolve({ isRemoved: true })
    },
    'tool.list': () => Promise.resolve(session.tools.list().map((t) => ({ name: t.name, description: t.description, ...(t.traits?.mcpServer ? { mcpServer: { ...t.traits.mcpServer } } : {}) }))),
    'tool.call': async (mod: string, args: { tool: string; [k: string]: unknown }) => {
      // `consent` is the person's words for the press that raised the call, not an argument: the tool never sees it.
      if (typeof args?.tool !== 'string') throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.tool.call needs { tool }, the name of a tool`, { mod, field: 'tool' })
      const { tool, consent: _consent, ...input } = args
      if (!session.tools.get(tool)) throw new ModloopError('MODLOOP_ERR_TOOL', `${mod}: $.tool.call: no such tool "${tool}"`, { mod })
      const o = await runModToolCall(session, tool, input)
      // An aborted call has no answer to give: the caller's await rejects, as the spec has it, rather than reading the model's interruption marker.
      if (o.interrupted) throw new ModloopError('MODLOOP_ERR_TOOL', `${mod}: $.tool.call of ${tool} was aborted`, { mod })
      return o.denied ? { deny: o.text } : o.isError ? { isError: true, result: o.result, text: o.text } : { result: o.result, text: o.text }
    },
    'tool.check': (_mod: string, args: { tool: string; input: unknown }) => host.bus.emit('tool.check', { tool: args.tool, input: args.input }),
  }
}

/**
 * A tool call a mod's `$` raised, run as the model's calls run: through tool.call, the permission
 * check and, for an ask, the session's approver (spec mods §4), in the running turn (its abort
 * stops it). `caller`: a mod whose tool.call handlers the call passes over ($.ui.ask's asker).
 */
export function runModToolCall(session: Session, tool: string, input: Record<string, unknown>, caller?: string): ReturnType<typeof runToolCall> {
  const env = { bus: session.host.bus, tools: session.tools, cwd: session.cwd, sessionId: session.id, signal: modCallSignal(session), canUseTool: session.options.canUseTool, caller }
  return runToolCall(env, { id: modToolUseId(), name: tool, input })
}

/**
 * What stops a call a mod raised: the running turn's abort, else (a handler of session.start, of a
 * task's end) the query's abortController, so an approver waiting on a person hears that the
 * caller gave up rather than holding the session open for ever.
 */
export const modCallSignal = (session: Session): AbortSignal =>
  session.turnAbort?.signal ?? session.options.abortController?.signal ?? new AbortController().signal

/** The tool_use id of a call a mod raised: no model asked for it. */
export const modToolUseId = (): string => `toolu_mod_${uuid()}`

/** Whether the `tools` option (a list, or the default set) lets this tool be registered. */
function offered(session: Session, names: string[], traits: ToolTraits | undefined): boolean {
  const picked = session.root.options.tools
  if (!Array.isArray(picked) || traits?.external) return true
  return names.some((n) => picked.includes(n))
}

/** A zod schema (v4 or v3) as far as the pipeline uses one: it parses, and converts to JSON Schema. */
function isZodSchema(value: unknown): value is z.ZodType {
  const v = value as { safeParse?: unknown; _zod?: unknown; _def?: unknown } | null
  return typeof v === 'object' && v !== null && typeof v.safeParse === 'function' && (v._zod !== undefined || v._def !== undefined)
}
