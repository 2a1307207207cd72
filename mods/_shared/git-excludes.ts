import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

/** `core.excludesFile` from one git config text, if it sets it. */
function excludesFileIn(config: string): string | undefined {
  let inCore = false
  let found: string | undefined
  for (const line of config.split('\n')) {
    const section = /^\s*\[([^\]\s]+)/.exec(line)
    if (section) inCore = section[1]!.toLowerCase() === 'core'
    const setting = inCore ? /^\s*excludesfile\s*=\s*(.*?)\s*$/i.exec(line) : null
    if (setting) found = setting[1]!.replace(/^"(.*)"$/, '$1')
  }
  return found
}

/**
 * The text of the user's global git excludes, found as git and ripgrep find it: `core.excludesFile`
 * from ~/.gitconfig (over $XDG_CONFIG_HOME/git/config), else $XDG_CONFIG_HOME/git/ignore.
 */
export function globalExcludes(): string | undefined {
  const home = homedir()
  const xdg = process.env.XDG_CONFIG_HOME || join(home, '.config')
  const configs = [join(xdg, 'git', 'config'), join(home, '.gitconfig')]
  let file: string | undefined
  for (const config of configs) file = excludesFileIn(read(config) ?? '') ?? file
  if (file?.startsWith('~/')) file = join(home, file.slice(2))
  return read(file ?? join(xdg, 'git', 'ignore'))
}
