import { setTrust } from '../permissions/trust-store.js'
import type { App } from './app.js'
import { needsTrust } from './trust-check.js'

/** The first run in a folder with project hooks or mods asks before any of them loads. */
export async function askTrust(app: App, cwd: string, env: Record<string, string | undefined>): Promise<boolean> {
  const asking = await needsTrust(cwd, env)
  if (!asking) return true
  const { value } = await app.choose([
    `Do you trust the files in ${cwd}?`,
    `It has ${asking.reasons.join(', ')}: code that runs on your machine once the session starts.`,
  ], [
    { label: 'Yes, trust this folder', value: true },
    { label: 'No, exit', value: false },
  ], false)
  if (value) await setTrust(asking.store, cwd, true)
  return value
}
