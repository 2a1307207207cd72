/**
 * A value built on the first call and kept: the hook schemas are built only when some settings
 * hold hooks. The same helper as core's `onFirstUse` (see there for the why), kept here because
 * hooks-runner imports nothing of modloop's.
 */
export function onFirstUse<T>(build: () => T): () => T {
  let value: T | undefined
  let built = false
  return () => {
    if (!built) {
      value = build()
      built = true
    }
    return value as T
  }
}
