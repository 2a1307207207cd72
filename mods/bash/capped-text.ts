/**
 * Collects a stream's text up to `cap` characters, keeping the head and the tail: the start shows
 * what ran, the end how it finished. The middle is dropped with a note saying how much.
 */
export class CappedText {
  private head = ''
  private tail = ''
  private dropped = 0
  private readonly half: number

  constructor(cap: number) {
    this.half = Math.max(1, Math.floor(cap / 2))
  }

  push(chunk: string): void {
    if (this.head.length < this.half) {
      const take = this.half - this.head.length
      this.head += chunk.slice(0, take)
      chunk = chunk.slice(take)
      if (chunk === '') return
    }
    this.tail += chunk
    if (this.tail.length > this.half) {
      this.dropped += this.tail.length - this.half
      this.tail = this.tail.slice(-this.half)
    }
  }

  get truncated(): boolean {
    return this.dropped > 0
  }

  text(): string {
    if (this.dropped === 0) return this.head + this.tail
    return `${this.head}\n\n... [${this.dropped} characters of output truncated] ...\n\n${this.tail}`
  }
}

/** Caps a finished string the same way. */
export function capText(text: string, cap: number): string {
  if (text.length <= cap) return text
  const capped = new CappedText(cap)
  capped.push(text)
  return capped.text()
}
