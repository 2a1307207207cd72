import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { readTrustStore, setTrust, trustStorePath } from '../mods/permissions/trust-store.js'
import type { CommandRun } from './command.js'
import { usageError } from './usage-error.js'

/**
 * `modloop trust [dir]`: records that you trust a workspace (default: the current directory), so
 * its project settings — `.claude/settings.json`, `.claude/settings.local.json`, its modloop
 * config — may widen access (allow rules, a permissive mode, extra directories). `--revoke`
 * takes it back; `--list` shows what is trusted. The record lives in $MODLOOP_HOME/trusted.json.
 */
export const trust: CommandRun = async ({ values, positionals, io }) => {
  const file = trustStorePath({ home: io.env.HOME || undefined }, io.env)
  if (values.list === true) {
    const store = await readTrustStore(file)
    const rows = Object.entries(store.workspaces).map(([dir, w]) => `${dir}  (since ${w.trustedAt})`)
    io.stdout.write(rows.length > 0 ? `${rows.join('\n')}\n` : `no trusted workspaces (${file})\n`)
    return 0
  }
  const dir = resolve(io.cwd, positionals[0] ?? '.')
  const isDir = await stat(dir).then((s) => s.isDirectory(), () => false)
  if (!isDir) throw usageError(`${dir} is not a directory`)
  const revoke = values.revoke === true
  const real = await setTrust(file, dir, !revoke)
  io.stdout.write(revoke
    ? `${real} is no longer trusted: its project settings keep their deny and ask rules, and lose what widens access.\n`
    : `trusted ${real}: its project settings may now allow tools, set the permission mode and add directories. Recorded in ${file}.\n`)
  return 0
}
