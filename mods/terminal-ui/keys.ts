import { EventEmitter } from 'node:events'
import { emitKeypressEvents } from 'node:readline'
import type { Key } from './app.js'

// Long enough for what waited in the tty to be read once the terminal is taken.
const TYPEAHEAD_MS = 50

/**
 * Decodes the keys of `stdin` into `onKey`, telling keys typed before the terminal was taken
 * (`early`) from the rest. Until then the tty was cooked: its line discipline turned Enter into
 * `\n`, which in raw mode is Ctrl+J, so an early `\n` is given back as Enter. What waited in the
 * tty is read at the first poll after the terminal is taken: the window closes after a poll
 * that follows TYPEAHEAD_MS, however busy the process was meanwhile. Answers the disposer.
 */
export function readKeys(stdin: NodeJS.ReadStream, onKey: (str: string | undefined, key: Key | undefined, early: boolean) => void): () => void {
  const decoder = new EventEmitter()
  emitKeypressEvents(decoder as NodeJS.ReadableStream)
  let early = true
  const timer = setTimeout(() => setImmediate(() => { early = false }), TYPEAHEAD_MS)
  const onData = (chunk: Buffer | string) => {
    decoder.emit('data', early ? String(chunk).replace(/\n/g, '\r') : chunk)
  }
  decoder.on('keypress', (str: string | undefined, key: Key | undefined) => onKey(str, key, early))
  stdin.on('data', onData)
  return () => {
    clearTimeout(timer)
    stdin.off('data', onData)
    decoder.removeAllListeners()
  }
}
