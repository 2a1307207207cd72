import type { ToolRegistration } from '../../core/mod/contracts.js'
import type { ModApi } from '../../core/mod/api.js'
import type { ToolContext, ToolOutput } from '../../core/tools/tool.js'
import { describeError } from '../../core/errors.js'
import { extensionOf, toolResultFile } from '../_shared/session-dir.js'
import type { ReadResourceResult, ServerConnection } from './connection.js'
import type { McpManager } from './manager.js'
import { outputLimit, PREVIEW_CHARS } from './tool-result.js'

export const LIST_RESOURCES = 'ListMcpResourcesTool'
export const READ_RESOURCE = 'ReadMcpResourceTool'
export const NO_RESOURCES = 'No resources found. MCP servers may still provide tools even if they have no resources.'

/**
 * The two resource tools Claude Code offers, registered once a connected server says it has
 * resources (a session whose servers have none never sees them). Both only read: they run
 * without approval and beside other read-only calls. The texts the model reads are Claude
 * Code's: the resource list as JSON, each resource with its `server`; a read's `contents` as
 * JSON, binary items saved beside the transcript and named (`blobSavedTo`).
 */
export async function registerResourceTools($: ModApi, manager: McpManager): Promise<void> {
  const register = $.tool.register as unknown as (spec: ToolRegistration) => Promise<unknown>
  await register({
    name: LIST_RESOURCES,
    description: 'Lists the resources (documents, data, files) the connected MCP servers offer, each with its server and URI. Give `server` to list one server\'s only. Read one with ReadMcpResourceTool.',
    inputSchema: { type: 'object', properties: { server: { type: 'string', description: 'Only this server\'s resources' } }, additionalProperties: false },
    isReadOnly: true,
    call: (input: { server?: string }, ctx: ToolContext) => listResources(manager, input.server, ctx.signal),
  })
  await register({
    name: READ_RESOURCE,
    description: 'Reads one resource of an MCP server by its URI (as ListMcpResourcesTool gives it).',
    inputSchema: {
      type: 'object',
      properties: { server: { type: 'string', description: 'The MCP server\'s name' }, uri: { type: 'string', description: 'The resource\'s URI' } },
      required: ['server', 'uri'], additionalProperties: false,
    },
    isReadOnly: true,
    call: (input: { server: string; uri: string }, ctx: ToolContext) => readResource($, manager, input.server, input.uri, ctx),
  })
}

async function listResources(manager: McpManager, server: string | undefined, signal: AbortSignal): Promise<ToolOutput> {
  const named = server === undefined ? undefined : serverNamed(manager, server)
  if (server !== undefined && !named) return unknownServer(manager, server)
  const conns = named ? [named] : manager.connections
  try {
    const listed = await Promise.all(conns.map(async (c) => (c.hasResources ? (await c.listResources(signal)).map((r) => ({ ...r, server: c.name })) : [])))
    const all = listed.flat()
    return { result: all, text: all.length === 0 ? NO_RESOURCES : JSON.stringify(all) }
  } catch (err) {
    return failure(describeError(err))
  }
}

async function readResource($: ModApi, manager: McpManager, server: string, uri: string, ctx: ToolContext): Promise<ToolOutput> {
  const conn = serverNamed(manager, server)
  if (!conn) return unknownServer(manager, server)
  if (!conn.hasResources) return failure(`Server "${server}" does not support resources`)
  let read: ReadResourceResult
  try {
    read = await conn.readResource(uri, ctx.signal)
  } catch (err) {
    // A URI the server does not know is an answer the model can act on, not a failure (as in Claude Code).
    if (/not found/i.test(describeError(err))) return { result: null, text: `Resource not found: ${uri} - it may have been deleted or the URI is stale. Re-run ${LIST_RESOURCES} to refresh.` }
    return failure(describeError(err))
  }
  const base = `mcp-resource-${toolResultFile(ctx.toolUseId).replace(/\.txt$/, '')}`
  const contents = await Promise.all(read.contents.map(async (item, i) => {
    if (!('blob' in item) || typeof item.blob !== 'string') return item
    const bytes = Buffer.from(item.blob, 'base64')
    const what = `${item.mimeType ?? 'no type'}, ${bytes.length} bytes`
    const path = await manager.saveFile(`${base}-${i}.${extensionOf(item.mimeType)}`, bytes, `binary content (${what})`, 'it is only named')
    const { blob: _, ...rest } = item
    return path
      ? { ...rest, blobSavedTo: path, text: `[Resource from ${server} at ${item.uri}] Binary content (${what}) saved to ${path}` }
      : { ...rest, text: `[Resource from ${server} at ${item.uri}] Binary content (${what}), not saved` }
  }))
  let text = JSON.stringify({ contents })
  const limit = outputLimit($.env.get('MAX_MCP_OUTPUT_TOKENS'))
  if (text.length > limit.chars) {
    const over = `${uri} is ${text.length.toLocaleString('en-US')} characters, more than the ${limit.chars.toLocaleString('en-US')} allowed (MAX_MCP_OUTPUT_TOKENS=${limit.tokens})`
    const path = await manager.saveFile(`${base}.txt`, text, `a resource of ${text.length} characters`, 'it is cut at the limit')
    text = path
      ? `${text.slice(0, Math.min(limit.chars, PREVIEW_CHARS))}\n\n[Output too large: ${over}. The whole of it was saved to: ${path}\nRead or Grep that file for the parts you need; the above is its start.]`
      : `${text.slice(0, limit.chars)}\n\n[Output truncated: ${over}.]`
  }
  return { result: { contents }, text }
}

function serverNamed(manager: McpManager, name: string): ServerConnection | undefined {
  return manager.connections.find((c) => c.name === name)
}

function unknownServer(manager: McpManager, name: string): ToolOutput {
  return failure(`Server "${name}" not found. Available servers: ${manager.statuses().map((s) => s.name).join(', ')}`)
}

const failure = (text: string): ToolOutput => ({ result: text, text, isError: true })
