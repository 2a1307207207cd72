/**
 * A value built on the first call and kept for every later one. For module-level zod schemas that
 * only some runs use (a config file, hooks in settings, a resumed transcript): the CLI's bundle runs
 * each module's top level when the module is first imported, so a schema written at the top is
 * built in every run that imports its module, used or not (a cold one-turn `-p` run built ~1,200
 * zod schemas, ~10 ms of a ~165 ms start). Behind this, its type stays exact
 * (`z.infer<ReturnType<typeof schema>>`) and `.shape`, `.extend` and the rest work on what it returns;
 * zod's own `z.lazy` defers too, but hides them.
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
