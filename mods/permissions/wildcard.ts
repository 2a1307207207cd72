/**
 * The `*` of Bash, Skill and parameter rules: any run of characters, spaces and slashes included.
 * This is not a glob (no `?`, classes or braces), so picomatch's path rules do not fit it.
 */
export function wildcard(pattern: string): (text: string) => boolean {
  const re = new RegExp(`^${pattern.split('*').map(escape).join('.*')}$`, 's')
  return (text) => re.test(text)
}

/**
 * A command pattern (spec loop-and-sdk §3.4): `*` anywhere; a trailing ` *` also matches the bare
 * prefix, so `ls *` matches `ls` and `ls -la` but not `lsof`; the legacy `:*` suffix means ` *`.
 */
export function commandPattern(pattern: string): (command: string) => boolean {
  let p = pattern.replace(/\s+/g, ' ').trim()
  if (p.endsWith(':*')) p = `${p.slice(0, -2)} *`
  if (p === '*') return () => true
  if (p.endsWith(' *')) {
    const prefix = p.slice(0, -2)
    const re = new RegExp(`^${prefix.split('*').map(escape).join('.*')}(?: .*)?$`, 's')
    return (command) => re.test(command)
  }
  return wildcard(p)
}

function escape(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
}
