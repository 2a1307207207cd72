import { isSessionId } from '../mods/transcripts/store/paths.js'
import { sessionsTitled } from '../mods/transcripts/store/locate.js'

/**
 * `--resume <text>` in the terminal: the text when it names no session of the project of `cwd`
 * (it is no session ID, nor any session's title), for the picker to search with, as Claude Code
 * takes it; undefined when it names one (or is an ID, found or not: resuming says which).
 */
export async function resumeSearch(text: string, cwd: string, env: Record<string, string | undefined>): Promise<string | undefined> {
  if (text === '' || isSessionId(text)) return undefined
  return (await sessionsTitled(text, cwd, env)).length === 0 ? text : undefined
}
