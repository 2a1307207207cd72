/** A size as people read it: `2.0 MB`, `16 MiB` for a binary cap. */
export function sizeOf(chars: number): string {
  if (chars % (1024 * 1024) === 0) return `${chars / (1024 * 1024)} MiB`
  if (chars >= 1_000_000) return `${(chars / 1_000_000).toFixed(1)} MB`
  if (chars >= 1_000) return `${(chars / 1_000).toFixed(1)} KB`
  return `${chars} characters`
}
