import { ModHost } from '../../core/mod/host.js'
import type { On } from '../../core/bus/types.js'
import { defineMod } from '../../core/mod/define.js'

/** A bound host with mods registered in order, each given by name and a register function. */
export async function hostWith(...mods: [name: string, register: (on: On) => void][]): Promise<ModHost> {
  const host = new ModHost()
  for (const [name, register] of mods) {
    const ok = await host.add(defineMod({ name, register: (on) => register(on) }))
    if (!ok) throw host.errors.at(-1)
  }
  host.bind()
  return host
}
