import { ModloopError } from '../errors.js'
import { inputSchemaOf, type Tool } from './tool.js'

const NAME = /^[A-Za-z0-9_-]{1,64}$/

/** The tools of a session, in registration order; their JSON Schemas are computed once. */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>()
  private readonly schemas = new Map<string, Record<string, unknown>>()
  private readonly aliases = new Map<string, string>()
  /** Names that resolve elsewhere even while a tool of their own exists (the `toolAliases` option). */
  private readonly redirects = new Map<string, string>()

  register(tool: Tool): void {
    if (!NAME.test(tool.name)) {
      throw new ModloopError('MODLOOP_ERR_REGISTRATION', `tool name "${tool.name}" must be 1-64 of [A-Za-z0-9_-]`, { mod: tool.mod })
    }
    const existing = this.tools.get(tool.name)
    if (existing && existing.mod !== tool.mod) {
      throw new ModloopError('MODLOOP_ERR_REGISTRATION', `tool "${tool.name}" is already registered by ${existing.mod ?? 'the host'}`, { mod: tool.mod })
    }
    this.tools.set(tool.name, tool)
    this.schemas.delete(tool.name)
  }

  /** A second name that resolves to a tool (e.g. the legacy `Task` for `Agent`). */
  alias(from: string, to: string): void {
    this.aliases.set(from, to)
  }

  /** `from` resolves to `to` from now on, whether or not a tool named `from` exists (one hop: `to` is taken as it is). */
  redirect(from: string, to: string): void {
    this.redirects.set(from, to)
  }

  unregister(name: string): void {
    this.tools.delete(name)
    this.schemas.delete(name)
  }

  /** A copy holding only the tools `keep` accepts (a subagent's tool set). */
  subset(keep: (tool: Tool) => boolean): ToolRegistry {
    const copy = new ToolRegistry()
    for (const tool of this.tools.values()) if (keep(tool)) copy.tools.set(tool.name, tool)
    for (const [from, to] of this.aliases) if (copy.tools.has(to)) copy.aliases.set(from, to)
    for (const [from, to] of this.redirects) copy.redirects.set(from, to)
    return copy
  }

  get(name: string): Tool | undefined {
    const redirected = this.redirects.get(name)
    if (redirected !== undefined) return this.tools.get(redirected)
    return this.tools.get(name) ?? this.tools.get(this.aliases.get(name) ?? '')
  }

  list(): Tool[] {
    return [...this.tools.values()]
  }

  names(): string[] {
    return [...this.tools.keys()]
  }

  schemaOf(tool: Tool): Record<string, unknown> {
    let schema = this.schemas.get(tool.name)
    if (!schema) {
      schema = inputSchemaOf(tool)
      this.schemas.set(tool.name, schema)
    }
    return schema
  }
}
