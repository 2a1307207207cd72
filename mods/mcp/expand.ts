const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g

/**
 * Expands `${VAR}` and `${VAR:-default}` in every string of a JSON config value (keys stay as
 * written), the way `.mcp.json` files are shared: secrets and paths come from the environment.
 * A variable that is unset and has no default is reported, so the server fails with its name.
 */
export function expandVars(value: unknown, env: (name: string) => string | undefined): { value: unknown; missing: string[] } {
  const missing = new Set<string>()
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      return v.replace(VAR, (_all, name: string, fallback: string | undefined) => {
        const set = env(name)
        // `:-` means "unset or empty", as in the shell.
        if (set !== undefined && (set !== '' || fallback === undefined)) return set
        if (fallback !== undefined) return fallback
        missing.add(name)
        return ''
      })
    }
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
    }
    return v
  }
  const out = walk(value)
  return { value: out, missing: [...missing] }
}
