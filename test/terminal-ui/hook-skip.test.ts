import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import shellHooks from '../../mods/shell-hooks/index.js'
import { approveProjectHooks, projectHookFingerprints } from '../../mods/shell-hooks/trust.js'
import { loadSources } from '../../mods/shell-hooks/sources.js'
import { cmd, dump, dumped, makeBox, run, withOptions, writeSettings, type Box } from '../shell-hooks/helpers.js'
import { runScript, toolsMod } from '../loop/helpers.js'

let box: Box
beforeEach(async () => {
  box = await makeBox()
  await writeSettings(box, { UserPromptSubmit: [{ hooks: [cmd(dump(box, 'UserPromptSubmit'))] }] })
})
afterEach(() => box.remove())

const fired = async () => (await dumped(box, 'UserPromptSubmit')).length

describe('project hooks not approved, as the terminal leaves them out', () => {
  it('an interactive session leaves them out; a headless one runs them', async () => {
    await run(box, [{ reply: 'one' }], 'go', { surface: 'terminal', isInteractive: true })
    expect(await fired()).toBe(0)
    await run(box, [{ reply: 'two' }], 'go')
    expect(await fired()).toBe(1)
  })

  it('an approved fingerprint runs in an interactive session', async () => {
    const loaded = await loadSources({ cwd: box.project, home: box.home, managedDir: false })
    const [hook] = await projectHookFingerprints(loaded.config, box.project, box.store)
    await approveProjectHooks(box.store, box.project, [hook!.fingerprint])
    await run(box, [{ reply: 'one' }], 'go', { surface: 'terminal', isInteractive: true })
    expect(await fired()).toBe(1)
  })

  it('skipUnapprovedProjectHooks overrides the default either way', async () => {
    const mod = (skip: boolean) => withOptions(shellHooks, { home: box.home, managedDir: false, trustStore: box.store, skipUnapprovedProjectHooks: skip })
    await runScript([{ reply: 'one' }], 'go', { cwd: box.project, mods: [toolsMod(), mod(false)], surface: 'terminal', isInteractive: true })
    expect(await fired()).toBe(1)
    await runScript([{ reply: 'two' }], 'go', { cwd: box.project, mods: [toolsMod(), mod(true)] })
    expect(await fired()).toBe(1)
  })
})
