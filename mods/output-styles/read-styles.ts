import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { z } from 'zod'
import { onFirstUse } from '../../core/on-first-use.js'
import { splitFrontmatter } from '../_shared/frontmatter.js'
import { describeError } from '../../core/errors.js'

/** An output style: instructions added to the system prompt, chosen by the `outputStyle` setting. */
export interface OutputStyle {
  /** Frontmatter `name`, else the file name; a plugin's is `plugin:name`. */
  name: string
  description?: string
  /** Keep the coding parts of the system prompt (Claude Code's `keep-coding-instructions`). */
  keepCodingInstructions: boolean
  /** What the system prompt gains. */
  body: string
  source: 'user' | 'project' | 'plugin'
  plugin?: string
  file: string
}

// Built on first use: only a run with output style files reads frontmatter.
const frontmatterFields = onFirstUse(() => {
  // YAML reads `true`; a hand-written "true" means the same.
  const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')])
  return { name: z.string().min(1), description: z.string(), 'keep-coding-instructions': flag } satisfies Record<string, z.ZodType>
})

/** `<dir>/*.md` as output styles (not recursive, as Claude Code reads them); a missing directory holds none. */
export async function readStyleDir(dir: string, source: OutputStyle['source'], warn: (m: string) => void, plugin?: string): Promise<OutputStyle[]> {
  let names: string[]
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.md')).sort()
  } catch {
    return []
  }
  const out: OutputStyle[] = []
  for (const name of names) {
    const style = await readStyleFile(join(dir, name), source, warn, plugin)
    if (style) out.push(style)
  }
  return out
}

/** A path a plugin manifest gives for output styles: a directory of them, or one `.md` file. */
export async function readStylePath(path: string, warn: (m: string) => void, plugin: string): Promise<OutputStyle[]> {
  const info = await stat(path).catch(() => undefined)
  // Absent: the default directory of a plugin without styles (the loader reports a missing manifest path).
  if (!info) return []
  if (info.isDirectory()) return readStyleDir(path, 'plugin', warn, plugin)
  if (!path.endsWith('.md')) {
    warn(`${path}: an output style file must end in .md; skipped`)
    return []
  }
  const style = await readStyleFile(path, 'plugin', warn, plugin)
  return style ? [style] : []
}

/** One style file. Bad frontmatter is reported and the body kept; a file with no instructions is skipped, said so. */
async function readStyleFile(file: string, source: OutputStyle['source'], warn: (m: string) => void, plugin?: string): Promise<OutputStyle | undefined> {
  let text: string
  try {
    if (!(await stat(file)).isFile()) return undefined
    text = await readFile(file, 'utf8')
  } catch (err) {
    warn(`${file}: cannot be read (${describeError(err)}); skipped`)
    return undefined
  }
  const fm = splitFrontmatter(text)
  if (fm.error) warn(`${file}: ${fm.error}; loaded with its body only`)
  const fields: { [K in keyof ReturnType<typeof frontmatterFields>]?: z.output<ReturnType<typeof frontmatterFields>[K]> } = {}
  for (const [key, schema] of Object.entries(frontmatterFields())) {
    if (fm.data[key] === undefined || fm.data[key] === null) continue
    const parsed = (schema as z.ZodType).safeParse(fm.data[key])
    if (parsed.success) (fields as Record<string, unknown>)[key] = parsed.data
    else warn(`${file}: frontmatter field "${key}" ignored: ${parsed.error.issues[0]?.message ?? 'wrong type'}`)
  }
  const body = fm.body.trim()
  if (!body) {
    warn(`${file}: an output style with no instructions; skipped`)
    return undefined
  }
  const own = fields.name?.trim() || basename(file, '.md')
  return {
    name: plugin ? `${plugin}:${own}` : own,
    ...(fields.description ? { description: fields.description } : {}),
    keepCodingInstructions: fields['keep-coding-instructions'] ?? false,
    body, source, file,
    ...(plugin ? { plugin } : {}),
  }
}
