import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { createTestHost } from '../../testing.js'

// A tool.call handler that runs another Bash command through $.tool.call before the model's own:
// its own call must not reach it again (spec mods §2.3), or each call would raise the next.
const wrapper = `import { defineMod } from 'modloop'
const seen: string[] = []
export default defineMod({ name: 'wrapper', register(on) {
  on('tool.call', { tool: 'Bash' }, async ($, e, next) => {
    seen.push(String(e.command))
    if (seen.length > 3) return { deny: 'reached again' }
    const status = await $.tool.call({ tool: 'Bash', command: 'echo inner' })
    const r = await next(e)
    return { ...r, text: \`\${status.text} then \${r.text}\` }
  })
} })
`

it('a $.tool.call a tool.call handler makes skips that handler instead of raising itself again', async () => {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-self-call-')))
  await writeFile(join(dir, 'wrapper.ts'), wrapper)
  const t = await createTestHost({
    mods: ['bash', 'permissions', join(dir, 'wrapper.ts')],
    script: [{ reply: [{ tool_use: { name: 'Bash', input: { command: 'echo outer' } } }] }, { reply: 'done' }],
  })
  await t.run('go', { permissionMode: 'bypassPermissions' })
  expect(JSON.stringify(t.model.requests[1]?.messages.at(-1))).toContain('"content":"inner then outer"')
  expect(t.host.failures).toEqual([])
  await t.close()
  await rm(dir, { recursive: true, force: true })
})
