import { readSettingsSources } from '../permissions/settings-sources.js'

export interface LanguageInput {
  cwd: string
  /** The user's home, where `.claude/settings.json` is read (default: CLAUDE_CONFIG_DIR, else the OS home). */
  home?: string
  /** The launch options (`settings`, `settingSources`), as `$.settings.read({source: 'flag'})` gives them. */
  flags: unknown
  env: Record<string, string | undefined>
}

/**
 * The settings' `language`, trimmed: the last source that sets one wins (user < project < local <
 * --settings < policy), as in Claude Code. A value that is not a string is a warning naming the
 * file; files that cannot be read are left to the permissions mod, which reports them.
 */
export async function readLanguage(input: LanguageInput, warn: (m: string) => void): Promise<string | undefined> {
  const { sources } = await readSettingsSources({ cwd: input.cwd, places: input.home ? { home: input.home } : {}, flags: input.flags, env: input.env })
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
