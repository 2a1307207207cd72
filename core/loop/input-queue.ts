import { slashCommandName } from './command.js'
import { uuid, type SDKUserMessage } from './messages.js'

export type Priority = 'now' | 'next' | 'later'
const ORDER: Priority[] = ['now', 'next', 'later']

/** What `take` answers when nothing was sent but prompts mods submitted wait to run (a scheduled prompt fired while idle). */
export const QUEUED = Symbol('queued')

/**
 * Input that arrives while a turn runs waits here: `now` interrupts the running turn, `next` joins
 * it at its next tool round, `later` waits for it to end. FIFO within a priority.
 */
export class InputQueue {
  private readonly items: { message: SDKUserMessage; priority: Priority }[] = []
  private waiter: (() => void) | undefined
  private ended = false
  private held: () => boolean = () => false
  private queued: () => boolean = () => false

  /** Called for each message as it arrives; `onNow` interrupts whatever turn is running. */
  constructor(private readonly onNow: () => void) {}

  /** Each message gets a uuid here unless it carries one: the id `interrupt()` receipts and the prompt's record use. */
  push(message: SDKUserMessage): void {
    const priority: Priority = message.priority ?? 'next'
    const id = typeof message.uuid === 'string' && message.uuid !== '' ? message.uuid : uuid()
    this.items.push({ message: { ...message, uuid: id }, priority })
    if (priority === 'now') this.onNow()
    this.wake()
  }

  end(): void {
    this.ended = true
    this.wake()
  }

  /** Whether the input has ended (what is waiting may still be taken). */
  get isEnded(): boolean {
    return this.ended
  }

  /** Keeps `take` waiting after the input ended while `held` says more may come (background tasks still running). */
  holdWhile(held: () => boolean): void {
    this.held = held
  }

  /**
   * Lets a waiting `take` end with QUEUED while `queued` says prompts of mods wait: they run as
   * turns of their own, so an idle session need not wait for the next message to run them.
   */
  serveQueued(queued: () => boolean): void {
    this.queued = queued
  }

  /** The hold, or what `serveQueued` watches, may have changed: a waiting `take` looks again. */
  poke(): void {
    this.wake()
  }

  /** The next message to start a turn with, by priority, else QUEUED when mods' prompts wait; undefined once the input has ended and drained. */
  async take(): Promise<SDKUserMessage | typeof QUEUED | undefined> {
    for (;;) {
      for (const p of ORDER) {
        const i = this.items.findIndex((it) => it.priority === p)
        if (i >= 0) return this.items.splice(i, 1)[0]!.message
      }
      if (this.queued()) return QUEUED
      if (this.ended && !this.held()) return undefined
      await new Promise<void>((resolve) => { this.waiter = resolve })
    }
  }

  /**
   * Removes and returns the `next` messages waiting, to join the running turn. A slash command
   * stays queued: joined, it would reach the model as the bare text `/name args`, never run. It
   * waits for the turn to end and runs as a turn of its own (spec loop-and-sdk §6.1).
   */
  takeJoining(): SDKUserMessage[] {
    const joins = (it: { message: SDKUserMessage; priority: Priority }) => it.priority === 'next' && slashCommandName(textOf(it.message)) === undefined
    const joining = this.items.filter(joins).map((it) => it.message)
    for (let i = this.items.length - 1; i >= 0; i--) if (joins(this.items[i]!)) this.items.splice(i, 1)
    return joining
  }

  /** Removes and returns the waiting reports of background tasks (origin task-notification), in arrival order. */
  takeNotifications(): SDKUserMessage[] {
    const taken: SDKUserMessage[] = []
    for (let i = 0; i < this.items.length;) {
      if (this.items[i]!.message.origin?.kind === 'task-notification') taken.push(this.items.splice(i, 1)[0]!.message)
      else i++
    }
    return taken
  }

  /** The uuids of the messages still waiting, in arrival order. */
  waiting(): string[] {
    return this.items.map((it) => it.message.uuid!)
  }

  /** Drops every waiting message; returns their uuids. */
  cancel(): string[] {
    return this.items.splice(0).map((it) => it.message.uuid!)
  }

  private wake(): void {
    const w = this.waiter
    this.waiter = undefined
    w?.()
  }
}

/** A message's prompt text: its string content, or its first text block. */
function textOf(message: SDKUserMessage): string {
  const c = message.message.content
  if (typeof c === 'string') return c
  const first = c.find((b) => b.type === 'text')
  return first && 'text' in first ? first.text : ''
}

/** Reads streaming input into the queue in the background, so it arrives while turns run. */
export function pump(input: AsyncIterable<SDKUserMessage>, queue: Pick<InputQueue, 'push' | 'end'>, onError: (err: unknown) => void): void {
  void (async () => {
    try {
      for await (const message of input) queue.push(message)
    } catch (err) {
      onError(err)
    } finally {
      queue.end()
    }
  })()
}
