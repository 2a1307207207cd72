import { describe, expect, it } from 'vitest'
import { query } from '../../index.js'
import { projectsPerTest } from './project.js'

const tmp = projectsPerTest()

describe('mods dropped when the host binds', () => {
  it('a missing dependency or required capability is told in the session log, like any load error', async () => {
    const p = await tmp({
      'modloop.config.json': { mods: ['./dep.mjs', './needs.mjs'] },
      'dep.mjs': "export default { name: 'dep', dependsOn: ['ghost'], register() {} }\n",
      'needs.mjs': "export default { name: 'needs', uses: { nothere: 'required' }, register() {} }\n",
    })
    const lines: string[] = []
    for await (const _ of query({ prompt: 'hi', options: { cwd: p.dir, script: [{ reply: 'ok' }], log: (line) => lines.push(line) } })) { /* drain */ }
    expect(lines).toEqual(expect.arrayContaining([
      expect.stringMatching(/^MODLOOP_ERR_MOD_DEPENDENCY: dep: depends on "ghost"/),
      expect.stringMatching(/^MODLOOP_ERR_CAPABILITY_MISSING: needs: uses the "nothere" capability/),
    ]))
  })
})
