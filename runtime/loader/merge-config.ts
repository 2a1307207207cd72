import type { HookSource, Layer, ResolvedConfig } from './types.js'

type Settings = Omit<ResolvedConfig, 'files' | 'mods' | 'hooks'>

const LISTS = ['allow', 'deny', 'ask', 'additionalDirectories'] as const

/**
 * Merges everything but `mods` over the layers, ancestor first. Merge rule: scalars (`model`, `sessionStore`) —
 * the child wins; records (`env`, `mcpServers`, `compaction`) — shallow, the child's keys win;
 * `permissions` — shallow, but the allow/deny/ask and additionalDirectories lists are
 * concatenated; `hooks` — every layer's hooks are kept, each with its source file.
 */
export function mergeSettings(layers: readonly Layer[]): Settings & { hooks: HookSource[] } {
  const out: Settings & { hooks: HookSource[] } = { hooks: [] }
  for (const { config, file, origin } of layers) {
    if (config.model !== undefined) out.model = config.model
    if (config.sessionStore !== undefined) out.sessionStore = config.sessionStore
    if (config.env) out.env = { ...out.env, ...config.env }
    if (config.mcpServers) out.mcpServers = { ...out.mcpServers, ...config.mcpServers }
    if (config.compaction) out.compaction = { ...out.compaction, ...config.compaction }
    if (config.permissions) {
      const merged: NonNullable<Settings['permissions']> = { ...out.permissions, ...config.permissions }
      for (const list of LISTS) {
        const rules = [...(out.permissions?.[list] ?? []), ...(config.permissions[list] ?? [])]
        if (rules.length > 0) merged[list] = rules
      }
      out.permissions = merged
    }
    if (config.hooks) out.hooks.push({ source: file ?? origin.label, hooks: config.hooks })
  }
  return out
}
