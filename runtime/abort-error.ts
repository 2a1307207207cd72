/**
 * What `query()` throws once its `abortController` was aborted, after the messages of the aborted
 * turn: the Agent SDK's `AbortError`, so a caller can tell an abort it asked for
 * (`err instanceof AbortError`) from a turn that failed, in either prompt mode.
 */
export class AbortError extends Error {
  override name = 'AbortError'
}
