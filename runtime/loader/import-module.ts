import { ModloopError } from '../../core/errors.js'
import { sharedJiti } from './jiti.js'
import { assertMayImport } from './import-gate.js'

// jiti reports a parse failure as `ParseError: <reason> \n <file>:<line>:<column>`.
const PARSE_ERROR = /^(\w*Error): ([\s\S]*?)\s*\n\s*(\S+:\d+:\d+)\s*$/
// A stack position: an absolute path or file URL at the start of a frame's location.
const FRAME = /(?:^|[\s(])((?:\/|[A-Za-z]:[\\/]|file:\/\/)[^\s():]+):(\d+):(\d+)/gm

/**
 * Imports a mod or config module through the shared jiti instance. A failure becomes
 * MODLOOP_ERR_MOD_IMPORT naming the file, and where the cause has a position (a syntax error,
 * a throw at module level), `file:line:column` is in the message.
 */
export async function importModule(file: string, what = 'mod'): Promise<Record<string, unknown>> {
  assertMayImport(file, what)
  const jiti = await sharedJiti()
  try {
    return (await jiti.import(file)) as Record<string, unknown>
  } catch (err) {
    throw new ModloopError('MODLOOP_ERR_MOD_IMPORT', `${file}: the ${what} failed to import: ${describeImportFailure(err)}`, {
      file, stage: 'import', cause: err,
    })
  }
}

export function describeImportFailure(err: unknown): string {
  if (!(err instanceof Error)) return String(err)
  const parse = PARSE_ERROR.exec(err.message)
  if (parse) return `syntax error at ${parse[3]}: ${parse[2]!.trim()}`
  // Node appends the require stack to "Cannot find module"; the file is already named.
  const first = err.message.split('\n')[0]!
  const reason = `${err.name === 'Error' ? '' : `${err.name}: `}${first}`
  const at = userFrame(err.stack)
  return at && !reason.includes(at) ? `${reason} (at ${at})` : reason
}

/** The first stack position outside node internals, node_modules and jiti itself. */
function userFrame(stack: string | undefined): string | undefined {
  if (!stack) return undefined
  for (const m of stack.matchAll(FRAME)) {
    if (m[1]!.includes('/node_modules/') || m[1]!.startsWith('node:')) continue
    return `${m[1]}:${m[2]}:${m[3]}`
  }
  return undefined
}
