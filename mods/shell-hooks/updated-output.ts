import type { ToolCallResult } from '../../core/events/types.js'
import type { ModApi } from '../../core/mod/api.js'
import { sendableContent } from '../../core/tools/tool.js'
import { toolOutputShape } from '../_shared/tool-output.js'

type Answered = Exclude<ToolCallResult, { deny: string }>

/**
 * A PostToolUse hook's `updatedToolOutput` as the call's result (spec §2.12), or undefined when it
 * does not fit. A tool whose mod published its output shape checks the value and renders it as
 * its own results read; MCP output passes unchecked (a string, or content blocks); any other tool
 * takes a value of the same kind as its own result (text for text, an object for an object).
 */
export function replacedOutput($: ModApi, tool: string, res: Answered, value: unknown): Answered | undefined {
  const shape = toolOutputShape($, tool)
  if (shape) {
    const result = shape.parse(value)
    return result === undefined ? undefined : { ...res, result, text: shape.text(result), content: undefined }
  }
  if (typeof value === 'string') return tool.startsWith('mcp__') || typeof res.result === 'string' ? { ...res, result: value, text: value, content: undefined } : undefined
  const content = tool.startsWith('mcp__') ? sendableContent(value) : undefined
  if (content) return { ...res, result: value, text: content.map((b) => (b.type === 'text' ? b.text : '')).join('\n'), content }
  if (!isPlainObject(value) || !isPlainObject(res.result)) return undefined
  return { ...res, result: value, text: JSON.stringify(value), content: undefined }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
