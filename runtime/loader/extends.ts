import { dirname } from 'node:path'
import { ModloopError } from '../../core/errors.js'
import { parseConfig } from './config-schema.js'
import { splitModKeys } from './mod-config-keys.js'
import { loadConfigRef, type FoundConfig } from './find-config.js'
import type { Builtins, Layer } from './types.js'

/** `extends: 'modloop'` names the built-in default distribution, the one used when no config exists. */
export const DEFAULT_DISTRIBUTION = 'modloop'

export function defaultLayer(builtins: Builtins, dir: string): Layer {
  const label = 'the default distribution'
  return { origin: { dir, label }, config: { mods: [...builtins.defaultDistribution] } }
}

/**
 * Flattens a config and everything it extends into layers, the furthest ancestor first: each
 * `extends` entry's own chain, in the order listed, then the config itself. A config reached twice
 * (a diamond) is kept at its first place; a config that extends itself, however indirectly,
 * → MODLOOP_ERR_EXTENDS naming the cycle.
 */
export async function collectLayers(found: FoundConfig, builtins: Builtins): Promise<Layer[]> {
  const layers: Layer[] = []
  const seen = new Set<string>()
  let sawDefault = false

  const visit = async (node: FoundConfig, stack: readonly string[]): Promise<void> => {
    if (stack.includes(node.file)) {
      const cycle = [...stack.slice(stack.indexOf(node.file)), node.file]
      throw new ModloopError('MODLOOP_ERR_EXTENDS', `${node.file}: extends forms a cycle: ${cycle.join(' -> ')}`, { file: node.file, stage: 'config' })
    }
    if (seen.has(node.file)) return
    const { known, extra } = splitModKeys(node.raw)
    const config = parseConfig(known, node.file)
    const dir = dirname(node.file)
    const parents = config.extends === undefined ? [] : typeof config.extends === 'string' ? [config.extends] : config.extends
    for (const ref of parents) {
      if (ref === DEFAULT_DISTRIBUTION) {
        if (!sawDefault) layers.push(defaultLayer(builtins, dir))
        sawDefault = true
        continue
      }
      await visit(await loadConfigRef(ref, dir, 'MODLOOP_ERR_EXTENDS', node.file), [...stack, node.file])
    }
    seen.add(node.file)
    layers.push({ file: node.file, origin: { dir, label: node.file, file: node.file }, config, ...(extra ? { extra } : {}) })
  }

  await visit(found, [])
  return layers
}
