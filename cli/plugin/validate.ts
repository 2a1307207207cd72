import { existsSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { describeError } from '../../core/errors.js'
import type { CommandRun } from '../command.js'
import { MANIFEST } from '../../runtime/loader/plugin.js'
import { issueLines, MARKETPLACE_FILE, marketplaceSchema } from '../../runtime/plugin-store/marketplace-manifest.js'

interface Finding { path: string; message: string }
interface Report { file: string; type: 'plugin' | 'marketplace'; errors: Finding[]; warnings: Finding[] }

const pluginSchema = z.looseObject({
  name: z.string().min(1),
  version: z.string().optional(),
  description: z.string().optional(),
  author: z.looseObject({ name: z.string() }).optional(),
})

const findings = (error: z.ZodError): Finding[] => issueLines(error).map((line) => {
  const at = line.indexOf(': ')
  return { path: line.slice(0, at), message: line.slice(at + 2) }
})

async function readJson(file: string, report: Report): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'))
  } catch (err) {
    report.errors.push(existsSync(file) ? { path: 'json', message: `Invalid JSON syntax: ${describeError(err)}` } : { path: 'file', message: `File not found: ${file}` })
    return undefined
  }
}

/** A plugin manifest's errors and warnings, paths led by `prefix` (a marketplace names its plugin). */
async function checkPlugin(file: string, report: Report, prefix = ''): Promise<void> {
  const json = await readJson(file, report)
  if (json === undefined) return
  const parsed = pluginSchema.safeParse(json)
  if (!parsed.success) return void report.errors.push(...findings(parsed.error).map((f) => ({ ...f, path: prefix + f.path })))
  if (!parsed.data.author) report.warnings.push({ path: `${prefix}author`, message: 'No author given: add "author": { "name": … } so people know who made the plugin' })
}

/** Which manifest a path means: the file itself, or the marketplace or plugin manifest of a directory. */
function targetOf(path: string): { file: string; type: 'plugin' | 'marketplace' } | Finding {
  if (!existsSync(path)) return { path: 'file', message: `File not found: ${path}` }
  if (!statSync(path).isDirectory()) return { file: path, type: path.endsWith('marketplace.json') ? 'marketplace' : 'plugin' }
  if (existsSync(join(path, MARKETPLACE_FILE))) return { file: join(path, MARKETPLACE_FILE), type: 'marketplace' }
  if (existsSync(join(path, MANIFEST))) return { file: join(path, MANIFEST), type: 'plugin' }
  return { path: 'directory', message: 'No manifest found in directory. Expected .claude-plugin/marketplace.json or .claude-plugin/plugin.json' }
}

/**
 * `modloop plugin validate <path> [--json]`: checks a marketplace manifest (and the manifest of
 * each plugin it keeps in itself) or a plugin manifest, as sessions and `install` read them. Exit
 * 1 on an error; warnings (a missing description or author) pass.
 */
export const validate: CommandRun = async ({ values, positionals, io }) => {
  const path = resolve(io.cwd, positionals[0]!)
  const target = targetOf(path)
  const report: Report = 'file' in target ? { ...target, errors: [], warnings: [] } : { file: path, type: 'plugin', errors: [target], warnings: [] }
  if ('file' in target && target.type === 'plugin') await checkPlugin(target.file, report)
  if ('file' in target && target.type === 'marketplace') {
    const json = await readJson(target.file, report)
    const parsed = json === undefined ? undefined : marketplaceSchema().safeParse(json)
    if (parsed && !parsed.success) report.errors.push(...findings(parsed.error))
    if (parsed?.success) {
      if (!parsed.data.description && !(parsed.data.metadata as { description?: unknown } | undefined)?.description) {
        report.warnings.push({ path: 'description', message: 'No marketplace description: add "description" to say what it offers' })
      }
      const root = resolve(target.file, '..', '..')
      for (const [i, entry] of parsed.data.plugins.entries()) {
        if (typeof entry.source === 'string') await checkPlugin(join(root, entry.source, MANIFEST), report, `plugins[${i}] plugin.json → `)
      }
    }
  }
  const success = report.errors.length === 0
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify({ success, target: report.file, manifest: report }, null, 2)}\n`)
    return success ? 0 : 1
  }
  const block = (mark: string, what: string, list: Finding[]) =>
    list.length === 0 ? '' : `${mark} Found ${list.length} ${what}${list.length === 1 ? '' : 's'}:\n\n${list.map((f) => `  ❯ ${f.path}: ${f.message}\n`).join('')}\n`
  io.stdout.write(`Validating ${report.type} manifest: ${report.file}\n\n${block('✘', 'error', report.errors)}${block('⚠', 'warning', report.warnings)}`)
  io.stdout.write(!success ? '✘ Validation failed\n' : report.warnings.length > 0 ? '✔ Validation passed with warnings\n' : '✔ Validation passed\n')
  return success ? 0 : 1
}
