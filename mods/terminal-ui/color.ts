import { stripVTControlCharacters } from 'node:util'

/** ANSI styling that turns itself off for NO_COLOR (https://no-color.org) and dumb terminals. */
export interface Paint {
  readonly on: boolean
  dim(text: string): string
  bold(text: string): string
  red(text: string): string
  green(text: string): string
  yellow(text: string): string
  cyan(text: string): string
  magenta(text: string): string
  inverse(text: string): string
  /** Removes styling a library added, when colour is off. */
  plain(text: string): string
}

export function painter(env: Record<string, string | undefined>): Paint {
  const on = !env.NO_COLOR && env.TERM !== 'dumb'
  const style = (open: number, close: number) => (text: string) => (on ? `\u001b[${open}m${text}\u001b[${close}m` : text)
  return {
    on,
    dim: style(2, 22), bold: style(1, 22), red: style(31, 39), green: style(32, 39), yellow: style(33, 39),
    cyan: style(36, 39), magenta: style(35, 39), inverse: style(7, 27),
    plain: (text) => (on ? text : stripVTControlCharacters(text)),
  }
}
