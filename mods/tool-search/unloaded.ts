import type { ToolDefinition } from '../../core/model/types.js'
import { TOOL_SEARCH } from './request.js'

/**
 * What follows the input error of a call to a deferred tool the model never loaded, as Claude
 * Code adds it: the model wrote the input without the schema (typed values then tend to come as
 * strings), so it is told how to load the tool and given the schema to write the input by.
 */
export function unloadedHint(tool: ToolDefinition): string {
  return [
    `${tool.name} is a deferred tool whose schema no ${TOOL_SEARCH} result has loaded in this conversation, so the call was written without it;`,
    'numbers, booleans and arrays written blind often arrive as strings and fail the check.',
    `Load it with ${TOOL_SEARCH}, query "select:${tool.name}", then make the call again.`,
    `Its input schema, for reference: ${JSON.stringify(tool.input_schema)}`,
  ].join(' ')
}
