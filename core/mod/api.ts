/**
 * `$`: the capabilities a mod gets, named as spec/mods.md §4 names them so a mod written for
 * that model reads the same here. Each method is served by a provider that some part of the
 * host (the loop, a mod of the core set) installs; a method with no counterpart in a terminal
 * runtime fails with MODLOOP_ERR_UNSUPPORTED naming it, never silently.
 * What mods offer each other is a capability (`$.capability`, typed by declaration merging on
 * `Capabilities` in capabilities.ts).
 */

import type { CapabilityApi } from './capabilities.js'

export type Method<A extends unknown[] = any[], R = unknown> = (...args: A) => R

export interface ModLog {
  debug(text: string): void
  info(text: string): void
  warn(text: string): void
  error(text: string): void
}

export interface StateRef { plugin: string; key: string; id?: string }

export interface ToolSpec {
  name: string
  description: string
  inputSchema?: Record<string, unknown>
  isReadOnly?: boolean
}

/** Every namespace and method the mod model names, mapped to how modloop serves it. */
export const API_METHODS = {
  ui: ['log', 'ask', 'toast', 'status', 'notice', 'invalidate', 'resolve', 'open', 'close', 'panes', 'focus', 'scroll', 'copy', 'blit', 'selection'],
  command: ['register', 'run', 'list'],
  tool: ['register', 'unregister', 'call', 'check', 'list'],
  agent: ['register', 'spawn', 'list'],
  model: ['complete', 'fork', 'classify'],
  prompt: ['submit', 'read', 'fill', 'suggest', 'compose'],
  turn: ['abort'],
  // `clear` (/clear's new conversation) and `mods` (the loaded mods) are modloop additions.
  session: ['messages', 'cwd', 'root', 'model', 'turns', 'id', 'repo', 'surfaces', 'usage', 'version', 'compact', 'send', 'append', 'authorize', 'clear', 'mods'],
  config: ['list', 'set'],
  settings: ['read'],
  // `all` (the whole environment child processes get) is a modloop addition.
  env: ['get', 'set', 'all'],
  fs: ['read', 'write', 'list', 'exists', 'stat', 'ancestors'],
  store: ['get', 'set', 'delete', 'keys'],
  state: ['get', 'set'],
  clock: ['now', 'sleep', 'after', 'every'],
  http: ['fetch'],
  process: ['run', 'spawn'],
  mcp: ['call', 'connect'],
  audio: ['play', 'speak'],
  telemetry: ['log', 'mark'],
} as const

/** Capabilities that exist only in a graphical or cloud host; modloop has no counterpart. */
export const UNSUPPORTED = new Set<string>([
  'ui.resolve', 'ui.open', 'ui.close', 'ui.panes', 'ui.focus', 'ui.scroll', 'ui.copy', 'ui.blit', 'ui.selection',
  'session.surfaces', 'session.send', 'session.authorize', 'audio.play', 'audio.speak', 'telemetry.log', 'telemetry.mark',
])

export type Namespace = keyof typeof API_METHODS
export type MethodName = { [N in Namespace]: `${N}.${(typeof API_METHODS)[N][number]}` }[Namespace]

type Untyped<N extends Namespace> = { readonly [M in (typeof API_METHODS)[N][number]]: Method }

/** One loaded mod, as `$.session.mods()` lists it. */
export interface ModInfo {
  name: string
  description?: string
  version?: string
  /** The file or package it came from, when it was loaded from one. */
  source?: string
}

export interface ModApiCore {
  readonly plugin: { readonly name: string; readonly root?: string; readonly version?: string }
  /** This mod's options, parsed by its schema. */
  readonly options: Readonly<Record<string, unknown>>
  /** Aborts when the mod is disposed or the host closes. */
  readonly signal: AbortSignal
  readonly log: ModLog
  readonly ui: Untyped<'ui'> & {
    log(text: string, options?: { to?: 'transcript' | 'debug' }): void
    ask(question: string, options?: string[] | { options?: string[]; header?: string; multiSelect?: true }): Promise<string>
  }
  readonly tool: Untyped<'tool'> & {
    register(spec: ToolSpec): Promise<{ tool: string }>
    call(args: { tool: string; [arg: string]: unknown }): Promise<unknown>
    check(args: { tool: string; input: unknown }): Promise<{ decision: 'allow' | 'ask' | 'deny' | 'defer'; reason?: string; rule?: string }>
    list(): Promise<{ name: string; description: string }[]>
  }
  readonly prompt: Untyped<'prompt'> & {
    submit(args: { text: string; asUser?: true }): Promise<unknown>
  }
  readonly session: Untyped<'session'> & {
    id(): string
    cwd(): string
    root(): string
    model(): string
    turns(): number
    /** Every mod loaded in this host, in load order: those that only handle events too. */
    mods(): ModInfo[]
  }
  /** The named APIs mods provide each other, typed by declaration merging on `Capabilities`. */
  readonly capability: CapabilityApi
  readonly state: {
    get(ref: StateRef): { value: unknown; version: number }
    set(ref: StateRef, value: unknown, options?: { ifVersion?: number }): { isSet: boolean; version: number }
  }
  /** The session's environment: query options.env when given (it replaces this process's, as the SDK's does), else process.env. */
  readonly env: {
    get(name: string): string | undefined
    set(name: string, value: string | undefined): void
    /** A copy of the whole environment, for the child processes a mod starts. */
    all(): Record<string, string | undefined>
  }
  readonly clock: {
    now(): number
    sleep(ms: number, options?: { signal?: AbortSignal }): Promise<void>
    after(ms: number, fn: () => void): { cancel(): void }
    every(ms: number, fn: () => void): { cancel(): void }
  }
  readonly command: Untyped<'command'>
  readonly agent: Untyped<'agent'>
  readonly model: Untyped<'model'>
  readonly turn: Untyped<'turn'>
  readonly config: Untyped<'config'>
  readonly settings: Untyped<'settings'>
  readonly fs: Untyped<'fs'>
  readonly store: Untyped<'store'>
  readonly http: Untyped<'http'>
  readonly process: Untyped<'process'>
  readonly mcp: Untyped<'mcp'>
  readonly audio: Untyped<'audio'>
  readonly telemetry: Untyped<'telemetry'>
}

/** Augment this interface (declaration merging) to type capabilities a mod adds. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ModApiExtensions {}

export type ModApi = ModApiCore & ModApiExtensions
