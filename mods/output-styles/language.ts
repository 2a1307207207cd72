import type { SettingsSource } from '../permissions/settings-sources.js'

/**
 * The settings' `language`, trimmed: the last source that sets one wins (user < project < local <
 * --settings < policy), as in Claude Code. A value that is not a string is a warning naming the
 * file.
 */
export function readLanguage(sources: readonly SettingsSource[], warn: (m: string) => void): string | undefined {
  let language: string | undefined
  for (const { source, settings } of sources) {
    const value = settings.language
    if (value === undefined) continue
    if (typeof value === 'string') language = value.trim() || undefined
    else warn(`${source.label}: "language" must be the name of a language; ignored`)
  }
  return language
}

/** The system prompt's section for a chosen language. */
export function languageSection(language: string): string {
  return [
    '# Language',
    `Answer in ${language}: explanations, code comments and every message to the user. Technical terms and identifiers in code stay as they are.`,
    `Write ${language} with its full spelling, every accent and special character included; never replace them with plain ASCII letters.`,
  ].join('\n')
}
