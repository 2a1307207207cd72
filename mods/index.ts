/**
 * The built-in mods, by the name a config uses for them. Each entry imports its mod lazily, so a
 * distribution pays only for the mods it names.
 */
export const builtinMods: Record<string, () => Promise<unknown /* module namespace */>> = {}

/** The mods loaded when no config is found (and by `extends: 'modloop'`), in load order. */
export const defaultDistribution: string[] = []
