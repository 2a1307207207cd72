import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { z } from 'zod'

/**
 * The todo list as the history left it: the input of the last TodoWrite call whose result was
 * not an error. The list lives only in the conversation, so a resumed session re-reads it there.
 */
export function todosFromHistory<S extends z.ZodType<{ todos: unknown[] }>>(messages: readonly MessageParam[], schema: S): z.output<S>['todos'] | undefined {
  const succeeded = new Set<string>()
  for (let i = messages.length - 1; i >= 0; i--) {
    const content = messages[i]!.content
    if (typeof content === 'string') continue
    for (let j = content.length - 1; j >= 0; j--) {
      const b = content[j]!
      if (b.type === 'tool_result' && b.is_error !== true) succeeded.add(b.tool_use_id)
      if (b.type === 'tool_use' && b.name === 'TodoWrite' && succeeded.has(b.id)) {
        const parsed = schema.safeParse(b.input)
        if (parsed.success) return parsed.data.todos
      }
    }
  }
  return undefined
}
