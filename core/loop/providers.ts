import { z } from 'zod'
import { ModloopError } from '../errors.js'
import type { ToolOutput, Tool, ToolContext } from '../tools/tool.js'
import { runToolCall } from '../tools/pipeline.js'
import { uuid } from './messages.js'
import type { Session } from './session.js'
import { spawnSubagent, type SpawnRequest } from './subagent.js'
import { complete, type CompleteRequest } from './complete.js'
import { compactOnRequest } from './compact.js'
import { configRows, configSet } from './model-switch.js'
import { clearSession } from './clear.js'
import type { CommandInfo } from './command.js'

/** What `$.tool.register` takes: the mod-model shape, plus an implementation for tools that carry their own. */
export interface ToolRegistration {
  name: string
  description: string
  /** A zod schema for the input (converted to JSON Schema with zod's own converter). */
  input?: z.ZodType
  /** Or a JSON Schema, for tools described elsewhere (`jsonSchema`, the Tool contract's name, is taken too). */
  inputSchema?: Record<string, unknown>
  jsonSchema?: Record<string, unknown>
  isReadOnly?: boolean | ((input: any) => boolean)
  /** A tool with its own implementation keeps its name; one without is `mcp__<mod>__<name>`, served by a tool.call handler. */
  call?: (input: any, ctx: ToolContext) => Promise<ToolOutput> | ToolOutput
  /** Other names the model may call it by (e.g. the legacy `Task` for `Agent`). */
  aliases?: string[]
}

/** Serves the `$` methods that belong to the loop: tools, session facts, prompts, turn control. */
export function installProviders(session: Session): void {
  const { host } = session
  host.provide({
    'tool.register': (mod: string, spec: ToolRegistration) => {
      if (!spec || typeof spec.name !== 'string' || typeof spec.description !== 'string') {
        throw new ModloopError('MODLOOP_ERR_REGISTRATION', `${mod}: $.tool.register needs { name, description }`, { mod })
      }
      const name = spec.call ? spec.name : `mcp__${mod}__${spec.name}`
      // Checked here, where the mod is known: a plain object as `input` would fail at the first call or listing.
      if (spec.input !== undefined && !isZodSchema(spec.input)) {
        throw new ModloopError('MODLOOP_ERR_REGISTRATION', `${mod}: tool "${spec.name}": input must be a zod schema; give a plain JSON Schema as inputSchema instead`, { mod })
      }
      const readOnly = spec.isReadOnly
      const tool: Tool = {
        name, mod, description: spec.description, input: spec.input,
        jsonSchema: spec.input ? undefined : spec.inputSchema ?? spec.jsonSchema ?? { type: 'object' },
        isReadOnly: typeof readOnly === 'function' ? readOnly : () => readOnly === true,
        call: spec.call ?? (() => {
          const message = `${name}: no tool.call handler of ${mod} answered this call`
          host.unanswered.push({ mod, event: 'tool.call', method: 'tool.register', message })
          return { isError: true, result: message }
        }),
      }
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
    'tool.list': () => Promise.resolve(session.tools.list().map((t) => ({ name: t.name, description: t.description }))),
    'tool.call': async (_mod: string, args: { tool: string; [k: string]: unknown }) => {
      const { tool, ...input } = args
      if (!session.tools.get(tool)) throw new ModloopError('MODLOOP_ERR_TOOL', `$.tool.call: no such tool "${tool}"`)
      const signal = session.turnAbort?.signal ?? new AbortController().signal
      const o = await runToolCall({ bus: host.bus, tools: session.tools, cwd: session.cwd, sessionId: session.id, signal }, { id: `toolu_mod_${uuid()}`, name: tool, input })
      return o.denied ? { deny: o.text } : o.isError ? { isError: true, result: o.result, text: o.text } : { result: o.result, text: o.text }
    },
    'tool.check': (_mod: string, args: { tool: string; input: unknown }) => host.bus.emit('tool.check', { tool: args.tool, input: args.input }),
    'session.id': () => session.id,
    'env.table': () => session.env,
    'session.compact': (mod: string, args?: { instructions?: string; trigger?: 'manual' | 'plugin' }) => compactOnRequest(session, mod, args),
    'session.cwd': () => session.cwd,
    'session.root': () => session.cwd,
    'session.model': () => session.model,
    'session.turns': () => session.userTurns,
    'session.messages': () => structuredClone(session.messages.slice(-4096)),
    'session.version': () => ({ version: session.version }),
    'session.clear': () => clearSession(session.root),
    // Status-line figures as the mod model names them; rate limits are unknown to a headless runtime.
    // `cost.apiDurationMs` and `models` (tokens and cost by model, as results' modelUsage) are modloop additions.
    'session.usage': () => {
      const root = session.root
      const u = root.usageSnapshot()
      return {
        startedAt: root.startedAt, rateLimits: [],
        context: { tokens: u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.output_tokens },
        cost: { usd: root.totalCostUsd, apiDurationMs: Math.round(root.apiMs) },
        models: structuredClone(root.modelUsage),
      }
    },
    // A notice for the caller's stream that the model never reads: a `system` message (informational by
    // default; a modloop reading of the mod model's `system` append), delivered before the next message.
    'session.append': (mod: string, args: { message?: { type?: string; content?: unknown; subtype?: string; [field: string]: unknown } }) => {
      const m = args?.message
      if (m?.type !== 'system') throw new ModloopError('MODLOOP_ERR_UNSUPPORTED', `${mod}: $.session.append supports only { message: { type: 'system', … } } notices`, { mod })
      const { type: _t, subtype, ...fields } = m
      const message = session.stamp({ type: 'system' as const, subtype: typeof subtype === 'string' ? subtype : 'informational', ...fields })
      session.post(message)
      return { message, uuid: message.uuid }
    },
    'prompt.submit': (mod: string, args: { text: string; asUser?: true }) => {
      const text = args.asUser ? args.text : `The ${mod} mod sent a message: ${args.text}`
      session.queued.push(text)
      return Promise.resolve({ text })
    },
    'command.register': (mod: string, spec: { name: string; description: string; argumentHint?: string; kind?: CommandInfo['kind'] }) => {
      if (!spec || !/^[A-Za-z0-9_:.-]{1,64}$/.test(spec.name ?? '')) {
        throw new ModloopError('MODLOOP_ERR_REGISTRATION', `${mod}: $.command.register needs a name of 1–64 of [A-Za-z0-9_:.-]`, { mod })
      }
      const taken = session.commands.get(spec.name)
      if (taken && taken.mod !== mod) throw new ModloopError('MODLOOP_ERR_REGISTRATION', `${mod}: "/${spec.name}" refused: ${taken.mod} registered it`, { mod })
      const kind = spec.kind === 'local' || spec.kind === 'prompt' || spec.kind === 'skill' ? spec.kind : undefined
      session.commands.set(spec.name, { name: spec.name, description: spec.description ?? '', argumentHint: spec.argumentHint, mod, ...(kind ? { kind } : {}) })
      return { command: spec.name }
    },
    'command.list': () => [...session.commands.values()].map((c) => ({ name: c.name, description: c.description, source: 'plugin', plugin: c.mod, ...(c.kind ? { kind: c.kind } : {}) })),
    'command.run': (_mod: string, args: { command: string; args?: string }) => {
      session.queued.push(`/${args.command}${args.args ? ` ${args.args}` : ''}`)
      return Promise.resolve({ queued: true })
    },
    'config.set': (mod: string, args: { key?: unknown; value?: unknown }) => configSet(session, mod, args),
    'config.list': () => configRows(session),
    // The launch flags as a settings layer (`source: 'flag'`); settings files are read by the mods that own them.
    'settings.read': (_mod: string, args?: { source?: string }) => {
      const o = session.options
      if (args?.source !== undefined && args.source !== 'flag') return {}
      return {
        permissions: {
          ...(o.allowedTools?.length ? { allow: [...o.allowedTools] } : {}),
          ...(o.disallowedTools?.length ? { deny: [...o.disallowedTools] } : {}),
          ...(o.permissionMode ? { defaultMode: o.permissionMode } : {}),
          ...(o.additionalDirectories?.length ? { additionalDirectories: [...o.additionalDirectories] } : {}),
        },
        ...(o.trustWorkspace ? { trustWorkspace: true } : {}),
        ...(o.settings?.length ? { settings: [...o.settings] } : {}),
        ...(o.includeHookEvents ? { includeHookEvents: true } : {}),
        ...(o.mcpServers ? { mcpServers: o.mcpServers } : {}),
        ...(o.outputFormat ? { outputFormat: o.outputFormat } : {}),
        ...(o.effort ? { effortLevel: o.effort } : {}),
        ...(o.strictMcpConfig ? { strictMcpConfig: true } : {}),
        ...(o.persistSession === false ? { persistSession: false } : {}),
        ...(o.enableFileCheckpointing ? { enableFileCheckpointing: true } : {}),
      }
    },
    'model.complete': (_mod: string, req: CompleteRequest, options?: { signal?: AbortSignal }) => complete(session, req, options?.signal),
    // Resolves once the subagent started; `done` (a modloop addition) resolves to its final report.
    'agent.spawn': (_mod: string, req: SpawnRequest) => spawnSubagent(session, req),
    // The agent types a mod offers (the Agent tool's subagent_type), listed in init; the mod still spawns them.
    'agent.register': (mod: string, spec: { name?: unknown; description?: unknown }) => {
      if (typeof spec?.name !== 'string' || spec.name === '') throw new ModloopError('MODLOOP_ERR_REGISTRATION', `${mod}: $.agent.register needs { name }`, { mod })
      session.root.agentTypes.set(spec.name, { name: spec.name, description: typeof spec.description === 'string' ? spec.description : '', mod })
      return { agent: spec.name }
    },
    'agent.list': () => [...session.root.agentTypes.values()],
    'turn.abort': () => {
      session.turnAbort?.abort(new Error('a mod aborted the turn'))
    },
  })
}

/** A zod schema (v4 or v3) as far as the pipeline uses one: it parses, and converts to JSON Schema. */
function isZodSchema(value: unknown): value is z.ZodType {
  const v = value as { safeParse?: unknown; _zod?: unknown; _def?: unknown } | null
  return typeof v === 'object' && v !== null && typeof v.safeParse === 'function' && (v._zod !== undefined || v._def !== undefined)
}
