/** The first cycle among the mods' declared dependencies, as a path that ends where it began. */
export function findCycle(mods: readonly { name: string; dependsOn: readonly string[] }[]): string[] | undefined {
  const deps = new Map(mods.map((m) => [m.name, m.dependsOn]))
  const state = new Map<string, 'visiting' | 'done'>()
  const path: string[] = []
  const visit = (name: string): string[] | undefined => {
    if (state.get(name) === 'done') return undefined
    if (state.get(name) === 'visiting') return [...path.slice(path.indexOf(name)), name]
    state.set(name, 'visiting')
    path.push(name)
    for (const d of deps.get(name) ?? []) {
      if (!deps.has(d)) continue
      const found = visit(d)
      if (found) return found
    }
    path.pop()
    state.set(name, 'done')
    return undefined
  }
  for (const m of mods) {
    const found = visit(m.name)
    if (found) return found
  }
  return undefined
}
