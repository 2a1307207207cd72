/**
 * Collects a stream's text up to `cap` characters, keeping the head and the tail: the start shows
 * what ran, the end how it finished. The middle is dropped with a note saying how much; the note
 * counts toward the cap, so the text never exceeds it (a budget set to the same figure holds).
 */
export class CappedText {
  private head = ''
  private tail = ''
  private total = 0
  private readonly half: number

  constructor(private readonly cap: number) {
    this.half = Math.max(1, Math.ceil(cap / 2))
  }

  push(chunk: string): void {
    this.total += chunk.length
    if (this.head.length < this.half) {
      const take = this.half - this.head.length
      this.head += chunk.slice(0, take)
      chunk = chunk.slice(take)
      if (chunk === '') return
    }
    this.tail += chunk
    if (this.tail.length > this.half) this.tail = this.tail.slice(-this.half)
  }

  /** Characters seen, cut or not. */
  get length(): number {
    return this.total
  }

  get truncated(): boolean {
    return this.total > this.cap
  }

  /** The text within `limit` characters (at most the cap it was made with), note included. */
  text(limit = this.cap): string {
    limit = Math.min(limit, this.cap)
    if (this.total <= limit) return this.head + this.tail
    const noteOf = (dropped: number) => `\n\n... [${dropped} characters of output truncated] ...\n\n`
    const room = Math.max(0, limit - noteOf(this.total).length)
    const headChars = Math.ceil(room / 2)
    const tailChars = room - headChars
    // Nothing dropped yet (the cap was odd): head and tail together are the whole text.
    const all = this.head.length + this.tail.length === this.total ? this.head + this.tail : undefined
    const head = (all ?? this.head).slice(0, headChars)
    const tail = tailChars === 0 ? '' : (all ?? this.tail).slice(-tailChars)
    return `${head}${noteOf(this.total - head.length - tail.length)}${tail}`
  }
}

/** Caps a finished string the same way. */
export function capText(text: string, cap: number): string {
  if (text.length <= cap) return text
  const capped = new CappedText(cap)
  capped.push(text)
  return capped.text()
}
