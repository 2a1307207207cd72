/**
 * How a top-level config key a mod reads joins its options: given the options its `mods` entry
 * set (if any) and the key's merged value, it answers the options the mod loads with. `true`
 * says the mod reads the key some other way (it is still counted as read).
 */
export type ConfigKeyFold = (options: Record<string, unknown> | undefined, value: unknown) => Record<string, unknown> | undefined

export type ConfigKeys = Readonly<Record<string, ConfigKeyFold | true>>

/** The options a mod loads with once every config key it declares is folded in (keys left unset are skipped). */
export function foldConfigKeys(keys: ConfigKeys | undefined, options: Record<string, unknown> | undefined, config: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  let folded = options
  for (const [key, fold] of Object.entries(keys ?? {})) {
    if (fold === true || config[key] === undefined) continue
    folded = fold(folded, config[key])
  }
  return folded
}
