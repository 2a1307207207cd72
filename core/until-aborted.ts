/** The promise's outcome, or a rejection with the abort's reason as soon as the signal aborts. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  let onAbort!: () => void
  const aborted = new Promise<never>((_, reject) => { onAbort = () => reject(signal.reason) })
  signal.addEventListener('abort', onAbort, { once: true })
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', onAbort))
}
