import { stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import type { On } from '../../core/bus/types.js'
import { isInside } from '../_shared/allowed-paths.js'
import { setRoots } from './policy.js'
import type { Policy } from './types.js'
import { registerCommands } from '../_shared/register-command.js'

/**
 * `/add-dir <path>`: one more working directory for the rest of the session, as `--add-dir` gives
 * at launch — the file tools may work there and path rules count it. The directories added stay
 * through `/clear`, which loads the policy again. Claude Code's terminal first asks whether the
 * folder is trusted; typed here, the person at the keyboard has said so.
 */
export function registerAddDirCommand(on: On, policyOf: () => Policy | undefined): void {
  const added: string[] = []

  on('session.start', async ($, e, next) => {
    const r = await next(e)
    const policy = policyOf()
    if (policy && added.length > 0) await setRoots(policy, [...policy.roots.lexical.slice(1), ...added])
    await registerCommands($, [{ name: 'add-dir', description: 'Add a working directory for this session', argumentHint: '<path>', kind: 'local' }])
    return r
  })

  on('command.run', { command: 'add-dir' }, async ($, e) => {
    const policy = policyOf()
    const typed = e.args.trim()
    if (!policy) return { output: 'The permission settings are not loaded, so no directory can be added.' }
    if (typed === '') return { output: 'Usage: /add-dir <path>' }
    const path = typed === '~' || typed.startsWith('~/') ? join($.env.get('HOME') || homedir(), typed.slice(1)) : resolve($.session.cwd() as string, typed)
    const found = await stat(path).catch(() => undefined)
    if (!found) return { output: `Path ${typed} was not found.` }
    if (!found.isDirectory()) return { output: `${typed} is not a directory. Did you mean to add the parent directory ${dirname(path)}?` }
    const [cwd, ...extra] = policy.roots.lexical
    if (extra.includes(path)) return { output: `${typed} is already added as a working directory.` }
    const within = policy.roots.lexical.find((root) => isInside(root, path))
    if (within) return { output: `${typed} is inside the ${within === cwd ? 'current ' : ''}working directory ${within}, so it is already reachable.` }
    await setRoots(policy, [...extra, path])
    added.push(path)
    return { output: `Added ${path} as a working directory for this session - /permissions to list the directories` }
  })
}
