import { unlink } from 'node:fs/promises'
import type { DelegateShell } from '../_shared/tool-delegate.js'
import { nextCwdFile, readSmall, shellScript } from './run-shell.js'
import type { ShellSession } from './shell-session.js'

/** The session's shell as a delegate (an editor terminal) runs a command in it: same env, env files and `cd`. */
export function delegateShell(shell: ShellSession, from: string): DelegateShell {
  return {
    env: shell.env(),
    wrap: (command) => {
      const cwdFile = nextCwdFile()
      return {
        script: shellScript(command, shell.prelude(), cwdFile),
        done: async () => {
          const cwd = readSmall(cwdFile)
          await unlink(cwdFile).catch(() => {})
          return cwd && cwd !== from ? shell.moveTo(cwd) : undefined
        },
      }
    },
  }
}
