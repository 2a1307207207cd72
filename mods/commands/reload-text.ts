/**
 * `/reload-skills`' answer: how many commands and skills a person can now run by name, and which
 * came or went since the last read, as Claude Code reports its re-scan.
 */
export function reloadText(before: readonly string[], after: readonly string[]): string {
  const added = after.filter((name) => !before.includes(name)).sort()
  const removed = before.filter((name) => !after.includes(name)).sort()
  const names = (list: readonly string[]) => list.map((name) => `/${name}`).join(', ')
  const changes = [
    ...(added.length > 0 ? [`added ${added.length}: ${names(added)}`] : []),
    ...(removed.length > 0 ? [`removed ${removed.length}: ${names(removed)}`] : []),
  ]
  return `Reloaded skills and commands: ${after.length} available; ${changes.length > 0 ? changes.join('; ') : 'nothing added or removed'}.`
}
