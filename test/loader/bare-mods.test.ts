import { describe, expect, it } from 'vitest'
import type { SDKMessage } from '../../core/loop/messages.js'
import { query } from '../../entry.js'
import { project } from './project.js'

describe('query({ options: { bare: true, mods } })', () => {
  it('loads string specs (a file and a built-in name) and nothing else, not even a config in cwd', async () => {
    const p = await project({
      'modloop.config.json': { mods: ['read', 'glob'] },
      'm.ts': `export default { name: 'note', register(on) { on('prompt.submit', ($, e, next) => next({ ...e, context: [...(e.context ?? []), 'note loaded'] })) } }`,
    })
    try {
      const messages: SDKMessage[] = []
      const logged: string[] = []
      const q = query({ prompt: 'hi', options: { cwd: p.dir, bare: true, mods: ['./m.ts', 'bash'], script: [{ reply: 'ok' }], persistSession: false, log: (l) => logged.push(l) } })
      for await (const m of q) messages.push(m)
      const init = messages.find((m) => m.type === 'system') as { tools: string[]; mods: { name: string }[] }
      expect(init.tools).toEqual(['Bash', 'BashOutput', 'KillShell'])
      expect(logged).toEqual([])
      expect(init.mods.map((m) => m.name)).toEqual(['note', 'bash'])
      expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success' })
    } finally {
      await p.remove()
    }
  })
})
