import { stat } from 'node:fs/promises'
import type { ToolContext, ToolOutput } from '../../core/tools/tool.js'
import { checkPath } from '../_shared/allowed-paths.js'
import { failure } from '../_shared/register-tool.js'
import { findExecutable } from './find-executable.js'
import { specOf, type GrepInput, type SearchSpec } from './grep-input.js'
import { grepResult } from './grep-result.js'
import { PatternError, UnknownTypeError } from './grep-errors.js'
import { searchWithRg } from './rg-engine.js'
import { describeError } from '../../core/errors.js'

export interface GrepOptions {
  additionalDirectories: readonly string[]
  /** Outside the directories too: the permissions mod checked the path (confinementLifted). */
  anywhere?: boolean
  /** auto: ripgrep when it is on PATH, else the JavaScript engine. */
  engine: 'auto' | 'rg' | 'js'
  /** The files Read deny rules cover (the permissions mod's deniedPaths). */
  denied?: (path: string) => boolean
}

/** Which engine a search runs on; 'rg' without ripgrep on PATH falls back to JavaScript. */
export async function engineFor(choice: GrepOptions['engine']): Promise<(spec: SearchSpec) => Promise<string[]>> {
  const rg = choice === 'js' ? undefined : await findExecutable('rg')
  // The JavaScript engine (with re2js, ~180 KB) loads only when a search needs it.
  return rg ? (spec) => searchWithRg(rg, spec) : (await import('./js-engine.js')).searchWithJs
}

export async function grepTool(input: GrepInput, ctx: ToolContext, options: GrepOptions): Promise<ToolOutput> {
  const checked = await checkPath(input.path ?? ctx.cwd, ctx.cwd, options.additionalDirectories, { field: 'path', relativeTo: ctx.cwd, anywhere: options.anywhere })
  if (!checked.ok) return failure(checked.message)
  const info = await stat(checked.path).catch(() => undefined)
  if (!info) return failure(`Path does not exist: ${input.path}`)
  const spec = { ...specOf(input, checked.path, info.isFile(), ctx.signal), denied: options.denied }
  const search = await engineFor(options.engine)
  let lines: string[]
  try {
    lines = await search(spec)
  } catch (err) {
    if (err instanceof PatternError) return failure(`The pattern "${input.pattern}" is not a valid regular expression: ${err.message}`)
    if (err instanceof UnknownTypeError) return failure(`Grep: ${err.message}`)
    return failure(`Grep failed: ${describeError(err)}`)
  }
  return grepResult(input, spec, lines)
}
