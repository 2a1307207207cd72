import { EventEmitter } from 'node:events'
import { emitKeypressEvents } from 'node:readline'
import type { Key } from './app.js'

// What waited in the tty is read at the first poll after the terminal is taken: well within this.
const TYPEAHEAD_MS = 20

/**
 * Decodes the keys of `stdin` into `onKey`, telling keys typed before the terminal was taken
 * (`early`) from the rest. Until then the tty was cooked: its line discipline turned Enter into
 * `\n` (in raw mode that is Ctrl+J), and what was typed waits to be read all at once. So the
 * first read is typeahead when it comes at once, or when it holds such a `\n` (a key pressed in
 * raw mode is read alone, and Enter there is `\r`); its `\n` is given back as Enter.
 * Answers the disposer.
 */
export function readKeys(stdin: NodeJS.ReadStream, onKey: (str: string | undefined, key: Key | undefined, early: boolean) => void): () => void {
  const decoder = new EventEmitter()
  emitKeypressEvents(decoder as NodeJS.ReadableStream)
  const opened = performance.now()
  let first = true
  let early = false
  const onData = (chunk: Buffer | string) => {
    const text = String(chunk)
    early = first && (text.includes('\n') || performance.now() - opened < TYPEAHEAD_MS)
    first = false
    decoder.emit('data', early ? text.replace(/\n/g, '\r') : chunk)
    early = false
  }
  decoder.on('keypress', (str: string | undefined, key: Key | undefined) => onKey(str, key, early))
  stdin.on('data', onData)
  return () => {
    stdin.off('data', onData)
    decoder.removeAllListeners()
  }
}
