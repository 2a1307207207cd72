import { readFile, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { z } from 'zod'
import { onFirstUse } from '../../core/on-first-use.js'
import { listField, splitFrontmatter } from '../_shared/frontmatter.js'

/** A prompt a person runs as `/name`, or the model through the Skill tool (skills only). */
export interface PromptCommand {
  name: string
  kind: 'command' | 'skill'
  source: 'project' | 'user' | 'plugin'
  /** The plugin a command or skill came from (named `plugin:name`; `${CLAUDE_PLUGIN_ROOT}` is its directory). */
  plugin?: PluginRef
  description: string
  /** Extra guidance for the model on when a skill applies (shown in the listing). */
  whenToUse?: string
  argumentHint?: string
  /** Names for the argument words in order (frontmatter `arguments`): `$file` in the body is the word at its place. */
  argumentNames?: string[]
  /** Tools the command's author grants while it runs: the permissions mod allows them until the next prompt. */
  allowedTools?: string[]
  model?: string
  /**
   * Whether the model may run it through the Skill tool. Custom commands are merged into skills
   * (spec loop-and-sdk §6.2), so a command is as callable as a skill unless its frontmatter says no.
   */
  modelInvocable: boolean
  userInvocable: boolean
  body: string
  file: string
  /** The line of the file the body starts on, so a problem in the body can name its line. */
  bodyLine: number
  /** A skill's own directory (`${CLAUDE_SKILL_DIR}`). */
  dir?: string
  /** A skill's directory name where its frontmatter `name` differs: `/dir` and the Skill tool take it too, as in Claude Code. */
  alias?: string
  /** Frontmatter `hooks` (settings shape): registered for the rest of the session once it runs (spec settings-hooks §1.8). */
  hooks?: Record<string, unknown>
  /**
   * Frontmatter `context: fork`: the model's Skill call runs the skill as a subagent of type
   * `agent` (general-purpose when unnamed), in the background with `background: true`, and gets
   * its report instead of the instructions.
   */
  fork?: { agent?: string; background?: boolean }
  /** What the settings' `skillOverrides` says of it, when it says more than `on`. */
  override?: SkillOverride
  /** Left out of the query's `skills` list: kept from the model (listing and Skill tool); `/name` still runs it. */
  unlisted?: true
}

/** How the settings' `skillOverrides` limits a skill: listed by name alone, kept from the model, or off everywhere. */
export type SkillOverride = 'name-only' | 'user-invocable-only' | 'off'

/** The plugin whose directory is read: its name prefixes what it holds. */
export interface PluginRef {
  name: string
  root: string
  /** `name@marketplace` for a plugin the settings enabled (its data directory is named by it). */
  id?: string
}

const NAME = /^[A-Za-z0-9_:.-]{1,64}$/
/**
 * Each frontmatter field and its shape; a field of the wrong shape is reported and ignored. Built
 * on first use: only a run with command or skill files reads frontmatter.
 */
const fields = onFirstUse(() => {
  const text = z.string()
  const flag = z.boolean()
  return {
  name: text,
  description: text,
  when_to_use: text,
  // YAML reads `argument-hint: [file]` as a list; its author meant the brackets.
  'argument-hint': z.union([text, z.array(z.unknown()).transform((a) => a.map((v) => `[${String(v)}]`).join(' '))]),
  // A space-separated string or a list, as Claude Code takes it.
  arguments: z.union([text, z.array(text)]),
  'allowed-tools': z.union([text, z.array(text)]),
  model: text,
  'disable-model-invocation': flag,
  'user-invocable': flag,
  // Settings-hooks shaped; the shell-hooks mod checks the groups when the skill runs.
  hooks: z.record(z.string(), z.unknown()),
  context: text,
  agent: text,
  background: flag,
  } satisfies Record<string, z.ZodType>
})

type Fields = { [K in keyof ReturnType<typeof fields>]?: z.output<ReturnType<typeof fields>[K]> }

function readFields(data: Record<string, unknown>, file: string, warn: (m: string) => void): Fields {
  const out: Record<string, unknown> = {}
  for (const [key, schema] of Object.entries(fields())) {
    if (data[key] === undefined || data[key] === null) continue
    const parsed = (schema as z.ZodType).safeParse(data[key])
    if (parsed.success) out[key] = parsed.data
    else warn(`${file}: frontmatter field "${key}" ignored: ${parsed.error.issues[0]?.message ?? 'wrong type'}`)
  }
  return out as Fields
}

/** The first line of prose in a body, for a command that states no description. */
function firstLine(body: string): string {
  const line = body.split('\n').map((l) => l.replace(/^#+\s*/, '').trim()).find(Boolean) ?? ''
  return line.length > 100 ? `${line.slice(0, 97)}...` : line
}

async function parseFile(file: string, warn: (m: string) => void): Promise<{ fields: Fields; body: string; bodyLine: number } | undefined> {
  const raw = await readFile(file, 'utf8').catch((err: Error) => {
    warn(`${file}: cannot be read: ${err.message}`)
    return undefined
  })
  if (raw === undefined) return undefined
  const fm = splitFrontmatter(raw)
  if (fm.error) warn(`${file}: ${fm.error}; loaded with its body only`)
  if (fm.warning) warn(`${file}: ${fm.warning}`)
  const lead = /^\s*/.exec(fm.body)![0]
  const lines = (t: string) => t.split('\n').length - 1
  return { fields: readFields(fm.data, file, warn), body: fm.body.trim(), bodyLine: 1 + lines(raw.slice(0, raw.length - fm.body.length)) + lines(lead) }
}

function build(name: string, kind: PromptCommand['kind'], source: PromptCommand['source'], file: string, parsed: { fields: Fields; body: string; bodyLine: number }, plugin?: PluginRef): PromptCommand {
  const { fields, body, bodyLine } = parsed
  return {
    name: plugin ? `${plugin.name}:${name}` : name, kind, source, file, body, bodyLine,
    ...(plugin ? { plugin } : {}),
    description: fields.description?.trim() || firstLine(body) || `/${name}`,
    ...(fields.when_to_use ? { whenToUse: fields.when_to_use } : {}),
    ...(fields['argument-hint'] ? { argumentHint: fields['argument-hint'] } : {}),
    ...(argumentNames(fields.arguments) ? { argumentNames: argumentNames(fields.arguments) } : {}),
    ...(listField(fields['allowed-tools']) ? { allowedTools: listField(fields['allowed-tools']) } : {}),
    ...(fields.model ? { model: fields.model } : {}),
    modelInvocable: fields['disable-model-invocation'] !== true,
    userInvocable: fields['user-invocable'] !== false,
    ...(kind === 'skill' ? { dir: dirname(file) } : {}),
    ...(fields.hooks ? { hooks: fields.hooks } : {}),
    ...(fields.context === 'fork' ? { fork: { ...(fields.agent ? { agent: fields.agent } : {}), ...(fields.background ? { background: true } : {}) } } : {}),
  }
}

function argumentNames(value: string | string[] | undefined): string[] | undefined {
  const names = (typeof value === 'string' ? value.split(/[\s,]+/) : value ?? []).map((n) => n.trim()).filter(Boolean)
  return names.length > 0 ? names : undefined
}

const isDir = (path: string) => stat(path).then((s) => s.isDirectory(), () => false)

/** `<dir>/**\/*.md` as commands: `a/b.md` is `/a:b`, and a plugin's `/plugin:a:b`. */
export async function readCommands(dir: string, source: PromptCommand['source'], warn: (m: string) => void, plugin?: PluginRef): Promise<PromptCommand[]> {
  if (!(await isDir(dir))) return []
  const { glob } = await import('tinyglobby')
  const files = (await glob('**/*.md', { cwd: dir, onlyFiles: true, expandDirectories: false })).sort()
  const out: PromptCommand[] = []
  for (const rel of files) {
    const command = await readCommand(join(dir, rel), rel.slice(0, -'.md'.length).split(/[\\/]/).join(':'), source, warn, plugin)
    if (command) out.push(command)
  }
  return out
}

/** A path a plugin manifest gives for commands: a directory read as `commands/` is, or one `.md` file named by its base name. */
export async function readCommandPath(path: string, source: PromptCommand['source'], warn: (m: string) => void, plugin?: PluginRef): Promise<PromptCommand[]> {
  const info = await stat(path).catch(() => undefined)
  // Absent: the default directory of a plugin without commands (the loader reports a missing manifest path).
  if (!info) return []
  if (info.isDirectory()) return readCommands(path, source, warn, plugin)
  if (!path.endsWith('.md')) {
    warn(`${path}: a command file must end in .md; skipped`)
    return []
  }
  const command = await readCommand(path, basename(path, '.md'), source, warn, plugin)
  return command ? [command] : []
}

async function readCommand(file: string, name: string, source: PromptCommand['source'], warn: (m: string) => void, plugin?: PluginRef): Promise<PromptCommand | undefined> {
  if (!NAME.test(name)) {
    warn(`${file}: "/${name}" is not a usable command name (1-64 of letters, digits, _ : . -); skipped`)
    return undefined
  }
  const parsed = await parseFile(file, warn)
  return parsed && build(name, 'command', source, file, parsed, plugin)
}

/** `<dir>/<name>/SKILL.md` as skills; the frontmatter `name` wins over the directory's; a plugin's is `plugin:name`. */
export async function readSkills(dir: string, source: PromptCommand['source'], warn: (m: string) => void, plugin?: PluginRef): Promise<PromptCommand[]> {
  if (!(await isDir(dir))) return []
  const { glob } = await import('tinyglobby')
  const files = (await glob('*/SKILL.md', { cwd: dir, onlyFiles: true, expandDirectories: false })).sort()
  const out: PromptCommand[] = []
  for (const rel of files) {
    const skill = await readSkill(join(dir, rel), source, warn, plugin)
    if (skill) out.push(skill)
  }
  return out
}

/** A path a plugin manifest gives for skills: a skill's own directory (holding SKILL.md), or a directory of them. */
export async function readSkillPath(path: string, source: PromptCommand['source'], warn: (m: string) => void, plugin?: PluginRef): Promise<PromptCommand[]> {
  const own = basename(path) === 'SKILL.md' ? path : join(path, 'SKILL.md')
  if (await stat(own).then((s) => s.isFile(), () => false)) {
    const skill = await readSkill(own, source, warn, plugin)
    return skill ? [skill] : []
  }
  const info = await stat(path).catch(() => undefined)
  if (info && !info.isDirectory()) {
    warn(`${path}: a skills path must be a directory; skipped`)
    return []
  }
  return readSkills(path, source, warn, plugin)
}

async function readSkill(file: string, source: PromptCommand['source'], warn: (m: string) => void, plugin?: PluginRef): Promise<PromptCommand | undefined> {
  const parsed = await parseFile(file, warn)
  if (!parsed) return undefined
  const dir = basename(dirname(file))
  const name = parsed.fields.name?.trim() || dir
  if (!NAME.test(name)) {
    warn(`${file}: "${name}" is not a usable skill name (1-64 of letters, digits, _ : . -); skipped`)
    return undefined
  }
  const skill = build(name, 'skill', source, file, parsed, plugin)
  return dir !== name && !plugin && NAME.test(dir) ? { ...skill, alias: dir } : skill
}
