import picomatch from 'picomatch'
import type { SettingsSource } from '../permissions/settings-sources.js'

/**
 * The settings' `claudeMdExcludes`: globs of memory files to leave out, matched against a file's
 * absolute path (or its real path). Every source's list counts, as Claude Code merges arrays.
 * Undefined when no source names one, so sessions without the key test nothing. A value that is
 * not a list of strings is a warning naming the file; unreadable files are left to the permissions mod.
 */
export function excludesOf(sources: readonly SettingsSource[], warn: (m: string) => void): ((path: string) => boolean) | undefined {
  const globs: string[] = []
  for (const { source, settings } of sources) {
    const value = settings.claudeMdExcludes
    if (value === undefined) continue
    if (Array.isArray(value) && value.every((g) => typeof g === 'string')) globs.push(...value.filter((g) => g !== ''))
    else warn(`${source.label}: "claudeMdExcludes" must be a list of glob patterns; ignored`)
  }
  return globs.length > 0 ? picomatch(globs, { dot: true }) : undefined
}
