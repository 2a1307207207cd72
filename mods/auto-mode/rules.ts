import { readJsonObject } from '../_shared/json-file.js'

/**
 * The auto mode classifier's rules, in four sections, as Claude Code's settings name them
 * (`autoMode` in the user's settings.json). Each entry reads `Label: what it covers`. A section
 * the user sets replaces the default one, unless it holds the entry `$defaults`, which puts the
 * defaults in at that place. Only the user's settings count: a cloned project must not loosen
 * what the classifier lets through.
 */
export const RULE_KEYS = ['allow', 'soft_deny', 'hard_deny', 'environment'] as const
export type RuleKey = (typeof RULE_KEYS)[number]
export type Rules = Record<RuleKey, string[]>

export const DEFAULT_RULES: Rules = {
  allow: [
    'Project Work: reading, searching, building, testing and editing the files of the project in the working directory, as a careful engineer on the project would without asking.',
    'Local Cleanup: deleting or moving files the agent or the build created inside the project.',
  ],
  soft_deny: [
    'Data Loss: deleting or overwriting what cannot be recovered (files outside the project, history rewrites, a force push, dropped tables).',
    'Outside the Project: reaching files, hosts or services outside the project without a clear need of the task.',
    'System and Credentials: changing system settings, installed software, credentials, shell profiles or permission settings.',
    'Off Task: actions the task the user gave does not call for.',
  ],
  hard_deny: [
    'Data Leak: sending secrets, credentials or private data to a place outside what the environment section trusts.',
  ],
  environment: [
    'Trusted: the repository in the working directory; nothing outside it is trusted unless listed here.',
  ],
}

const DEFAULTS_MARK = '$defaults'

/** The rules in use: each section the user set (a list of strings) replaces the default, `$defaults` splicing it in. */
export function rulesInUse(autoMode: unknown): Rules {
  const set = typeof autoMode === 'object' && autoMode !== null ? (autoMode as Record<string, unknown>) : {}
  const rules = {} as Rules
  for (const key of RULE_KEYS) {
    const mine = set[key]
    rules[key] = Array.isArray(mine) && mine.every((e) => typeof e === 'string')
      ? mine.flatMap((e) => (e === DEFAULTS_MARK ? DEFAULT_RULES[key] : [e]))
      : [...DEFAULT_RULES[key]]
  }
  return rules
}

/** The part of an entry before its first `:` or ` [`: what `auto-mode defaults --label` matches. */
export const labelOf = (entry: string): string => entry.split(/:| \[/)[0]!.trim()

/** The user's `autoMode`, or nothing when the file is missing or not JSON (the defaults then apply). */
export async function userAutoMode(file: string): Promise<unknown> {
  return (await readJsonObject(file).catch(() => ({}) as Record<string, unknown>)).autoMode
}
