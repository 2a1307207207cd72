import type { CoercedInput } from '../../core/tools/tool.js'

// What models trained on a text editor tool send for Write's two parameters.
const CONTENT_NAMES = ['file_text', 'file_content']
const REPEATS: Record<'file_path' | 'content', string[]> = { file_path: ['path', 'file'], content: [...CONTENT_NAMES, 'new_text', 'body', 'text', 'contents'] }

/**
 * Write's input sent in another tool's shape, read as Write's, as Claude Code reads it: `path` as
 * `file_path`, a lone `file_text` or `file_content` as `content`; `description`, `command: "create"`
 * and a name that only repeats a parameter's value are dropped. The note says what was done.
 */
export function coerceWriteInput(given: Record<string, unknown>): CoercedInput | undefined {
  const input = { ...given }
  const done: string[] = []
  if (!Object.hasOwn(input, 'file_path') && typeof input.path === 'string') {
    input.file_path = input.path
    delete input.path
    done.push('`path` was taken as `file_path`.')
  }
  const named = CONTENT_NAMES.filter((k) => Object.hasOwn(input, k))
  if (named.length === 1 && !Object.hasOwn(input, 'content') && typeof input[named[0]!] === 'string') {
    input.content = input[named[0]!]
    delete input[named[0]!]
    done.push(`\`${named[0]}\` was taken as \`content\`.`)
  }
  if (Object.hasOwn(input, 'description')) {
    delete input.description
    done.push('`description` was left out.')
  }
  if (input.command === 'create') {
    delete input.command
    done.push('`command` was left out.')
  }
  for (const key of ['file_path', 'content'] as const) {
    for (const alias of REPEATS[key]) {
      if (typeof input[key] !== 'string' || input[alias] !== input[key]) continue
      delete input[alias]
      done.push(`\`${alias}\` only repeated \`${key}\` and was left out.`)
    }
  }
  return done.length ? { input, note: `Note: Write takes \`file_path\` and \`content\`. ${done.join(' ')}` } : undefined
}
