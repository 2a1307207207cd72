import type { ModApi } from '../../core/mod/api.js'

/**
 * Whether the per-machine sections (environment, git status, memory path) go in the first user
 * message instead of the system prompt (`--exclude-dynamic-system-prompt-sections`, or query()'s
 * preset `excludeDynamicSections`), so the system prompt is the same on every machine and its cache
 * is shared. A subagent's prompt keeps them.
 */
export function dynamicSectionsMoved($: ModApi): boolean {
  try {
    return ($.settings.read({ source: 'flag' }) as { excludeDynamicSections?: unknown } | undefined)?.excludeDynamicSections === true
  } catch {
    return false
  }
}
