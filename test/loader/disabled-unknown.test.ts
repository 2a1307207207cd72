import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Io } from '../../cli/io.js'
import { main } from '../../cli/main.js'
import { project, type Project } from './project.js'

function capture(cwd: string): Io & { out: () => string; err: () => string } {
  let out = ''
  let err = ''
  return { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, cwd, env: {}, out: () => out, err: () => err }
}

let p: Project
beforeAll(async () => {
  p = await project({
    'modloop.config.json': { mods: ['read', { name: 'bashh', enabled: false }, { name: 'write', enabled: false }] },
  })
})
afterAll(() => p.remove())

describe('a mods entry that disables a mod no one could load', () => {
  it('mods list warns, naming the entry and the config file; disabling a known mod that is not loaded stays quiet', async () => {
    const io = capture(p.dir)
    expect(await main(['mods', 'list'], io)).toBe(0)
    const warnings = io.err().split('\n').filter((l) => l.includes('warning'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('"bashh"')
    expect(warnings[0]).toContain(p.path('modloop.config.json'))
    expect(io.out()).toMatch(/read\s/)
  })

  it('mods list --json carries the warning', async () => {
    const io = capture(p.dir)
    expect(await main(['mods', 'list', '--json'], io)).toBe(0)
    expect(JSON.parse(io.out()).warnings).toEqual([expect.stringContaining('"bashh"')])
  })
})
