import type { ConfigHooks } from './sources.js'

/** Where query()'s `hooks` show in listings and in errors about them. */
export const SDK_HOOKS_SOURCE = 'query() hooks'

/**
 * query()'s `hooks` (the Agent SDK's callback hooks: event → `{matcher, hooks: [fn], timeout,
 * onFailure}`) as one more hook source, each function a `callback` handler. The runner then
 * selects, runs and merges them exactly as settings hooks: same input, same output fields.
 * `onFailure: 'block'` is the runner's `onError: 'deny'` (a failing or late callback blocks).
 * Anything malformed is passed through as written, so the runner's checks name the key path.
 */
export function sdkHookSource(hooks: unknown): ConfigHooks | undefined {
  if (hooks === undefined || hooks === null) return undefined
  if (typeof hooks !== 'object' || Array.isArray(hooks)) return { source: SDK_HOOKS_SOURCE, label: 'SDK Hooks', hooks: hooks as Record<string, unknown[]> }
  const out: Record<string, unknown[]> = {}
  for (const [event, groups] of Object.entries(hooks as Record<string, unknown>)) {
    out[event] = Array.isArray(groups) ? groups.map(group) : (groups as unknown[])
  }
  return { source: SDK_HOOKS_SOURCE, label: 'SDK Hooks', hooks: out }
}

function group(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || !Array.isArray((raw as { hooks?: unknown }).hooks)) return raw
  const { matcher, hooks, timeout, onFailure } = raw as { matcher?: unknown; hooks: unknown[]; timeout?: unknown; onFailure?: unknown }
  return {
    ...(matcher !== undefined ? { matcher } : {}),
    hooks: hooks.map((callback) => ({
      type: 'callback', callback,
      ...(typeof callback === 'function' && callback.name ? { name: callback.name } : {}),
      ...(timeout !== undefined ? { timeout } : {}),
      ...(onFailure === 'block' ? { onError: 'deny' } : {}),
    })),
  }
}
