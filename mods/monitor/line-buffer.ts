/**
 * Cuts a stream into lines. The unfinished line's chunks are collected, not re-concatenated per
 * chunk (that is quadratic in a long line's length), and only its first `keep` characters are
 * held: a line that never ends cannot grow the process, and what a notification shows of it is
 * cut at about that length anyway (the whole of it is in the output file).
 */
export class LineBuffer {
  private pieces: string[] = []
  private held = 0

  constructor(private readonly keep: number) {}

  /** The lines this chunk completes, without their `\r\n` or `\n`. */
  take(chunk: string): string[] {
    const parts = chunk.split('\n')
    const rest = parts.pop()!
    const lines: string[] = []
    for (const part of parts) {
      this.hold(part)
      lines.push(this.pieces.join('').replace(/\r$/, ''))
      this.pieces = []
      this.held = 0
    }
    this.hold(rest)
    return lines
  }

  /** The unfinished line, taken (the stream ended). */
  rest(): string {
    const line = this.pieces.join('')
    this.pieces = []
    this.held = 0
    return line
  }

  private hold(piece: string): void {
    // One character past `keep` is held, so the line still reads as longer than the cap.
    const room = this.keep + 1 - this.held
    if (room <= 0 || piece === '') return
    const kept = piece.length > room ? piece.slice(0, room) : piece
    this.pieces.push(kept)
    this.held += kept.length
  }
}
