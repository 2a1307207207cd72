import { handlerSchemas, keyPath, matcherGroupSchema, unknownKeys, type HandlerConfig } from './config-schema.js'
import { HooksError, type HooksWarning } from './errors.js'
import { isHookEvent, type HookEventName } from './events.js'
import type { HookSource } from './hooks-config.js'

export interface ParsedGroup {
  event: HookEventName
  matcher?: string
  sequential: boolean
  path: string
  handlers: { config: HandlerConfig; path: string }[]
}

export interface ParsedHooks {
  groups: ParsedGroup[]
  errors: HooksError[]
  warnings: HooksWarning[]
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)

/**
 * Validates a `hooks` object (event → matcher groups → handlers). A malformed group or handler is
 * reported with the file and key path and skipped alone; the rest of the file stays in effect
 * (CL 2.1.122). Unknown events and unknown fields are warnings: real settings files carry extras.
 */
export function parseHooks(raw: unknown, source: HookSource, base = 'hooks'): ParsedHooks {
  const out: ParsedHooks = { groups: [], errors: [], warnings: [] }
  const file = source.file
  const fail = (path: string, message: string) =>
    out.errors.push(new HooksError('HOOKS_ERR_CONFIG', `${file}: ${path}: ${message}`, { file, path }))
  if (raw === undefined) return out
  if (!isObject(raw)) {
    fail(base, `expected an object keyed by event name, received ${typeName(raw)}`)
    return out
  }
  for (const [event, groups] of Object.entries(raw)) {
    const eventPath = keyPath(base, [event])
    if (!isHookEvent(event)) {
      out.warnings.push({ code: 'HOOKS_WARN_UNKNOWN_EVENT', message: `${file}: ${eventPath}: unknown hook event "${event}" (names are case-sensitive); skipped`, file, path: eventPath })
      continue
    }
    if (!Array.isArray(groups)) {
      fail(eventPath, `expected an array of matcher groups, received ${typeName(groups)}`)
      continue
    }
    groups.forEach((group, gi) => {
      const parsed = parseGroup(group, event, keyPath(eventPath, [gi]), out, fail, file)
      if (parsed) out.groups.push(parsed)
    })
  }
  return out
}

function parseGroup(
  raw: unknown,
  event: HookEventName,
  path: string,
  out: ParsedHooks,
  fail: (path: string, message: string) => void,
  file: string,
): ParsedGroup | undefined {
  const result = matcherGroupSchema().safeParse(raw)
  if (!result.success) {
    for (const issue of result.error.issues) fail(keyPath(path, issue.path), issue.message)
    return undefined
  }
  warnUnknown(raw as object, matcherGroupSchema(), path, out, file)
  const group: ParsedGroup = { event, matcher: result.data.matcher, sequential: result.data.sequential === true, path, handlers: [] }
  result.data.hooks.forEach((handler, hi) => {
    const hPath = keyPath(path, ['hooks', hi])
    const config = parseHandler(handler, hPath, out, fail, file)
    if (config) group.handlers.push({ config, path: hPath })
  })
  return group
}

function parseHandler(
  raw: unknown,
  path: string,
  out: ParsedHooks,
  fail: (path: string, message: string) => void,
  file: string,
): HandlerConfig | undefined {
  if (!isObject(raw)) {
    fail(path, `expected a handler object, received ${typeName(raw)}`)
    return undefined
  }
  const type = raw.type
  const schemas = handlerSchemas()
  if (typeof type !== 'string' || !(type in schemas)) {
    fail(keyPath(path, ['type']), `expected one of ${Object.keys(schemas).join(', ')}, received ${JSON.stringify(type) ?? 'nothing'}`)
    return undefined
  }
  const schema = schemas[type as keyof typeof schemas]
  const result = schema.safeParse(raw)
  if (!result.success) {
    for (const issue of result.error.issues) fail(keyPath(path, issue.path), issue.message)
    return undefined
  }
  warnUnknown(raw, schema, path, out, file)
  const config = result.data as HandlerConfig
  return lintHandler(config, path, out, fail, file) ? config : undefined
}

function warnUnknown(raw: object, schema: { shape: Record<string, unknown> }, path: string, out: ParsedHooks, file: string) {
  for (const key of unknownKeys(raw, schema)) {
    const p = keyPath(path, [key])
    out.warnings.push({ code: 'HOOKS_WARN_UNKNOWN_FIELD', message: `${file}: ${p}: unknown field, ignored`, file, path: p })
  }
}

/** Load-time checks that save a debugging session later (spec §1.7, §5.10 R12). False = drop the handler. */
function lintHandler(
  config: HandlerConfig,
  path: string,
  out: ParsedHooks,
  fail: (path: string, message: string) => void,
  file: string,
): boolean {
  if (config.type !== 'command') return true
  const p = keyPath(path, ['command'])
  if (!config.args) {
    // Substituting user options into a shell line would let an option value inject shell code.
    if (config.command.includes('${user_config.')) {
      fail(p, '${user_config.KEY} is only substituted in exec form (with "args"); the hook does not run')
      return false
    }
    if (/(^|[\s"'=])[A-Za-z]:\\|\\\\[A-Za-z]/.test(config.command)) {
      out.warnings.push({ code: 'HOOKS_WARN_WINDOWS_PATH', message: `${file}: ${p}: backslash path in a shell-form command; quote it or use forward slashes`, file, path: p })
    }
  } else if (/\s/.test(config.command) && !/[\\/]/.test(config.command)) {
    out.warnings.push({ code: 'HOOKS_WARN_EXEC_NAME', message: `${file}: ${p}: exec-form command "${config.command}" is a bare name with whitespace; the spawn will fail`, file, path: p })
  }
  return true
}
