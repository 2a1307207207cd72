import { AsyncSeriesHook } from 'tapable'
import type { Invoke, Link, StreamInvoke } from './link.js'

/**
 * What each tap carries besides tapable's own fields: the handler's link, and how to run it.
 * `invoke`/`stream` start as the bare handler's and each register interceptor returns the tap
 * with them wrapped (isolation innermost, then provenance and tracing): the interceptor API as
 * tapable designs it, with no link rewritten in place.
 */
export interface TapExtra {
  link: Link
  invoke: Invoke
  stream: StreamInvoke
}

export type ModTap = { name: string; stage?: number; before?: string | string[]; type: string; fn: Function } & TapExtra
export type ModHook = AsyncSeriesHook<[unknown], TapExtra>

/** A register interceptor: gets each tap as it is tapped (and every tap already there) and returns it, wrapped. */
export type TapWrapper = (tap: ModTap) => ModTap

export function createHook(name: string): ModHook {
  return new AsyncSeriesHook<[unknown], TapExtra>(['e'], name)
}

export function intercept(hook: ModHook, name: string, wrap: TapWrapper): void {
  // tapable types the tap an interceptor sees without the extra fields it passes through.
  hook.intercept({ name, register: wrap as never })
}

/**
 * The taps in the order tapable resolved (stage, `before`, registration). tapable declares
 * `taps` without the extra fields, which every tap here carries: this is the one place that
 * reads them so.
 */
export function tapsOf(hook: ModHook): readonly ModTap[] {
  return hook.taps as unknown as readonly ModTap[]
}

/** Taps a handler under its mod's name; tapable orders it. tapable's types say `before` is one name; it takes a list. */
export function addTap(hook: ModHook, link: Link, before: string[], fail: Invoke, failStream: StreamInvoke): void {
  hook.tap({ name: link.mod, stage: link.options.stage ?? 0, before: before as never, link, invoke: fail, stream: failStream }, link.handler as never)
}

/** Removes one handler's tap: tapable has no untap, so this is the one place that edits `taps`. */
export function removeTap(hook: ModHook, link: Link): void {
  const i = tapsOf(hook).findIndex((t) => t.link === link)
  if (i >= 0) hook.taps.splice(i, 1)
}
