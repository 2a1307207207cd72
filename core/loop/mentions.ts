import type { ImageBlockParam } from '@anthropic-ai/sdk/resources/messages'
import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'
import type { PromptMentionInput } from '../events/types.js'
import type { Session } from './session.js'

// `@path` or `@path#L10-20` at the start or after whitespace, as in Claude Code; quoted form
// `@"path with spaces"`. An email (a@b.c), a URL's `/@scope/name` or a quoted "`@Component`" is not one.
const MENTION = /(?<!\S)@(?:"([^"]+)"|([^\s"'`]+))/g

/** The mentions of a prompt, each file and range once: naming a file twice attaches it once. */
export function parseMentions(text: string, cwd: string): PromptMentionInput[] {
  const out: PromptMentionInput[] = []
  const seen = new Set<string>()
  for (const m of text.matchAll(MENTION)) {
    const raw = (m[1] ?? m[2] ?? '').replace(/[.,;:!?)]+$/, '')
    if (!raw) continue
    const [file, fragment] = raw.split('#') as [string, string?]
    const range = /^L(\d+)(?:-(\d+))?$/.exec(fragment ?? '')
    const path = file.startsWith('~/') ? join(homedir(), file.slice(2)) : isAbsolute(file) ? file : resolve(cwd, file)
    // A range written backwards (#L20-10) names the same lines as #L10-20.
    const ends: [number, number] | undefined = range ? [Number(range[1]), Number(range[2] ?? range[1])] : undefined
    const offset = ends && Math.min(...ends)
    const limit = ends && Math.abs(ends[1] - ends[0]) + 1
    const key = `${path}#${offset ?? ''}-${limit ?? ''}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push({ mention: raw, path, ...(offset !== undefined ? { offset, limit } : {}) })
  }
  return out
}

/**
 * Raises `prompt.mention` once per @path of a prompt. Core only finds the mentions and attaches
 * what handlers answer; reading files is a mod's work (the mentions mod), so with no such mod
 * a mention attaches nothing. Images go after every text, as the blocks they are.
 */
export async function attachMentions(session: Session, text: string): Promise<{ context: string[]; images: ImageBlockParam[] }> {
  const { bus } = session.host
  const context: string[] = []
  const images: ImageBlockParam[] = []
  if (!bus.has('prompt.mention')) return { context, images }
  for (const e of parseMentions(text, session.cwd)) {
    const r = await bus.emit('prompt.mention', e, () => ({ type: null }))
    if ('context' in r && r.context) context.push(...r.context.filter((c) => typeof c === 'string' && c.length > 0))
    if ('images' in r && r.images) images.push(...r.images)
  }
  return { context, images }
}
