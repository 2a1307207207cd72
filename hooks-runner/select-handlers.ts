import type { HooksWarning } from './errors.js'
import { acceptsHandlerType, eventSpec, matchValue, type HookEventName } from './events.js'
import { dedupKey, type HooksConfig, type ResolvedHandler } from './hooks-config.js'
import { ifRuleMatches } from './if-rule.js'
import { matcherKind, matcherMatches } from './matcher.js'

export interface SelectContext {
  cwd: string
  projectDir: string
  home?: string
  /** Ids of `once` handlers that already ran this session. */
  onceUsed?: ReadonlySet<number>
}

export interface Selection {
  /** The handlers to run, in settings order, duplicates removed. */
  handlers: ResolvedHandler[]
  /** The event's match value (tool name, source, trigger, …), when it has one. */
  matchQuery?: string
  /** How many handlers matched before de-duplication. */
  beforeDedup: number
  warnings: HooksWarning[]
}

/**
 * Steps 3–5 of the dispatch pipeline (spec §4.1): the groups whose matcher matches, the handlers whose
 * `if` rule holds (tool events only), whose type the event accepts and whose URL is allowed, then
 * identical handlers of one source class collapsed to the first in settings order.
 */
export function selectHandlers(config: HooksConfig, event: HookEventName, input: Record<string, unknown>, ctx: SelectContext): Selection {
  const matchQuery = matchValue(event, input)
  const warnings: HooksWarning[] = []
  const warn = (h: ResolvedHandler, code: HooksWarning['code'], why: string) =>
    warnings.push({ code, message: `${h.source.file}: ${h.path}: ${why}`, file: h.source.file, path: h.path, hook: h.name })
  const matched: ResolvedHandler[] = []
  for (const h of config.handlers) {
    if (h.event !== event || h.config.enabled === false) continue
    if (!matcherMatches(h.matcher, matchQuery, event)) {
      if (matcherKind(h.matcher, event) === 'invalid') warn(h, 'HOOKS_WARN_INVALID_REGEX', `matcher "${h.matcher}" is not a valid regular expression; it matches nothing`)
      continue
    }
    if (h.config.if !== undefined && !ifHolds(h, event, input, ctx, warn)) continue
    if (!acceptsHandlerType(event, h.config.type)) {
      warn(h, 'HOOKS_WARN_HANDLER_TYPE', `${event} does not accept "${h.config.type}" handlers; use a command hook instead`)
      continue
    }
    if (h.config.type === 'http' && config.allowedHttpHookUrls && !urlAllowed(h.config.url, config.allowedHttpHookUrls)) {
      warn(h, 'HOOKS_WARN_URL_BLOCKED', `${h.config.url} is not in allowedHttpHookUrls`)
      continue
    }
    if (h.config.once && h.source.honourOnce && ctx.onceUsed?.has(h.id)) continue
    matched.push(h)
  }
  const seen = new Set<string>()
  const handlers = matched.filter((h) => {
    const key = dedupKey(h)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  return { handlers, matchQuery, beforeDedup: matched.length, warnings }
}

function ifHolds(
  h: ResolvedHandler,
  event: HookEventName,
  input: Record<string, unknown>,
  ctx: SelectContext,
  warn: (h: ResolvedHandler, code: HooksWarning['code'], why: string) => void,
): boolean {
  if (!eventSpec(event).tool) {
    warn(h, 'HOOKS_WARN_IF_IGNORED', `"if" is only evaluated on tool events; this ${event} handler never runs`)
    return false
  }
  const toolInput = typeof input.tool_input === 'object' && input.tool_input !== null ? (input.tool_input as Record<string, unknown>) : {}
  const verdict = ifRuleMatches(h.config.if!, {
    toolName: typeof input.tool_name === 'string' ? input.tool_name : '',
    toolInput,
    cwd: typeof input.cwd === 'string' ? input.cwd : ctx.cwd,
    projectDir: ctx.projectDir,
    home: ctx.home,
  })
  if (verdict.unsupported) warn(h, 'HOOKS_WARN_IF_UNSUPPORTED', `if ${verdict.unsupported}; the hook runs`)
  return verdict.run
}

/** `allowedHttpHookUrls` patterns: `*` is a wildcard; host names compare without case and trailing dot. */
export function urlAllowed(url: string, patterns: readonly string[]): boolean {
  let normal: string
  try {
    const u = new URL(url)
    u.hostname = u.hostname.replace(/\.$/, '')
    normal = u.href
  } catch {
    return false
  }
  return patterns.some((p) => {
    const re = new RegExp(`^${p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'i')
    return re.test(normal) || re.test(url)
  })
}
