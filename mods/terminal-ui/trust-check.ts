import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SEARCH_PLACES } from '../../core/loader/find-config.js'
import { trustedBy, trustStorePath } from '../permissions/trust-store.js'

/**
 * What in `cwd` would run code of the project's own once a session starts: settings hooks in
 * `.claude/settings*.json`, MCP servers in `.mcp.json` (the mcp mod starts them once the folder is
 * trusted) and a modloop config (which names mods). Only files are looked at; nothing of the
 * project is loaded or run before the user trusts it.
 */
export async function projectCode(cwd: string): Promise<string[]> {
  const found: string[] = []
  for (const name of ['settings.json', 'settings.local.json']) {
    const file = join(cwd, '.claude', name)
    const json = await readJson(file)
    if (json && typeof json === 'object' && 'hooks' in json && Object.keys((json as { hooks?: object }).hooks ?? {}).length > 0) found.push(`hooks in .claude/${name}`)
  }
  const mcp = await readJson(join(cwd, '.mcp.json'))
  if (hasEntries(mcp, 'mcpServers')) found.push('MCP servers in .mcp.json')
  for (const name of SEARCH_PLACES) {
    const file = join(cwd, name)
    if (!existsSync(file)) continue
    if (name === 'package.json') {
      const json = await readJson(file)
      if (json && typeof json === 'object' && 'modloop' in json) found.push('a modloop config in package.json')
    } else found.push(`mods of ${name}`)
  }
  return found
}

/** Answers the reasons to ask, or nothing when the folder has no project code or is trusted already. */
export async function needsTrust(cwd: string, env: Record<string, string | undefined>): Promise<{ reasons: string[]; store: string } | undefined> {
  const reasons = await projectCode(cwd)
  if (reasons.length === 0) return undefined
  const store = trustStorePath({ home: env.HOME || undefined }, env)
  if (await trustedBy(store, cwd)) return undefined
  return { reasons, store }
}

function hasEntries(json: unknown, key: string): boolean {
  const value = typeof json === 'object' && json !== null ? (json as Record<string, unknown>)[key] : undefined
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'))
  } catch {
    return undefined
  }
}
