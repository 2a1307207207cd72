import { existsSync } from 'node:fs'
import { mkdir, rename, rm, stat } from 'node:fs/promises'
import { isAbsolute, join, resolve } from 'node:path'
import { randomHex } from '../../core/random.js'
import { describeError } from '../../core/errors.js'
import type { CommandRun } from '../command.js'
import type { Io } from '../io.js'
import { readMarketplace } from '../../runtime/plugin-store/marketplace-manifest.js'
import { pluginsDir, readKnownMarketplaces, type MarketplaceSource } from '../../runtime/plugin-store/files.js'
import { outcomeOf } from './outcome.js'
import { editSettingsMap, run, scopeOf, writeKnown } from './store.js'

/**
 * How a source argument reads, as Claude Code reads it: a path (`./x`, `/x`, `~/x`) is a directory
 * marketplace used in place; a URL a git repository to clone (modloop also takes `file://`, which
 * Claude Code refuses, so a local repository works offline); `owner/repo` a GitHub repository.
 */
export function parseSource(arg: string, io: Io): MarketplaceSource | undefined {
  if (/^(https?|file|ssh|git):\/\//.test(arg) || /^[\w.-]+@[\w.-]+:/.test(arg)) return { source: 'git', url: arg }
  if (arg.startsWith('.') || isAbsolute(arg) || arg.startsWith('~')) {
    const path = arg.startsWith('~') ? join(io.env.HOME ?? '', arg.slice(1)) : resolve(io.cwd, arg)
    return { source: 'directory', path }
  }
  if (/^[\w.-]+\/[\w.-]+(#.+)?$/.test(arg)) return { source: 'github', repo: arg }
  return undefined
}

/** The clone URL of a git or GitHub source. */
export const cloneUrl = (source: MarketplaceSource): string =>
  source.source === 'github' ? `https://github.com/${String(source.repo)}.git` : String((source as { url?: unknown }).url)

/**
 * `modloop plugin marketplace add <source> [--scope user|project|local]`: records the marketplace
 * in `~/.claude/plugins/known_marketplaces.json` (a git one cloned into `plugins/marketplaces/<name>`)
 * and declares it in the scope's settings `extraKnownMarketplaces`, as Claude Code does.
 */
export const marketplaceAdd: CommandRun = async ({ values, positionals, io }) => {
  const scope = scopeOf(values.scope, 'user')
  const report = outcomeOf(io, values, 'marketplace-add')
  const source = parseSource(positionals[0]!, io)
  if (!source) return report.failed('', 'Invalid marketplace source format. Try: owner/repo, https://..., or ./path', 'invalid_source')
  let location: string
  let name: string
  if (source.source === 'directory') {
    const path = String(source.path)
    if (!(await stat(path).then(() => true, () => false))) return report.failed('', `Path does not exist: ${path}`, 'invalid_source')
    try {
      name = (await readMarketplace(path)).name
    } catch (err) {
      return report.failed('Failed to add marketplace: ', describeError(err), manifestCode(err))
    }
    location = path
  } else {
    const cloned = await cloneMarketplace(io, cloneUrl(source))
    if ('error' in cloned) return report.failed('Failed to add marketplace: ', cloned.error, cloned.code)
    ;({ name, location } = cloned)
  }
  const where = `declared in ${scope} settings`
  // The same name from another source replaces it, as a fresh add.
  const already = JSON.stringify(readKnownMarketplaces(io.env)[name]?.source) === JSON.stringify(source)
  await writeKnown(io.env, (known) => { known[name] = { source, installLocation: location, lastUpdated: new Date().toISOString() } })
  await editSettingsMap(io, scope, 'extraKnownMarketplaces', (map) => { map[name] = { source } })
  return report.ok(already ? `Marketplace '${name}' already on disk — ${where}` : `Successfully added marketplace: ${name} (${where})`, { marketplace: name })
}

/** `--json`'s failureCode for a marketplace.json that could not be read (readMarketplace's errors). */
const manifestCode = (err: unknown): string => describeError(err).startsWith('Marketplace file not found') ? 'manifest_missing' : 'manifest_invalid'

/** Clones a marketplace repository into `plugins/marketplaces/<its name>`, replacing an older clone. */
async function cloneMarketplace(io: Io, url: string): Promise<{ name: string; location: string } | { error: string; code: string }> {
  const root = join(pluginsDir(io.env), 'marketplaces')
  await mkdir(root, { recursive: true })
  const temp = join(root, `temp_git_${Date.now()}_${randomHex(3)}.clone`)
  try {
    await run('git', ['clone', '--depth', '1', '--quiet', url, temp], { env: { ...io.env, GIT_TERMINAL_PROMPT: '0' } })
  } catch (err) {
    await rm(temp, { recursive: true, force: true })
    const stderr = (err as { stderr?: string }).stderr?.trim()
    return { error: `Failed to clone marketplace repository ${url}: ${stderr || describeError(err)}`, code: 'error_validation' }
  }
  try {
    const { name } = await readMarketplace(temp)
    const location = join(root, name)
    if (existsSync(location)) await rm(location, { recursive: true, force: true })
    await rename(temp, location)
    return { name, location }
  } catch (err) {
    await rm(temp, { recursive: true, force: true })
    return { error: describeError(err), code: manifestCode(err) }
  }
}
