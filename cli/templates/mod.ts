/** The files `modloop init mod <name>` writes: a typed mod and its test on the test kit. */
export function modFiles(name: string): Record<string, string> {
  return {
    'index.ts': `import { defineMod } from 'modloop'
import { z } from 'zod'

/**
 * ${name}: what it does, in one line. Handlers are \`($, e, next) => result\`: return next(e) to
 * observe, next({ ...e, … }) to rewrite, or a result of your own to answer. Events: docs/events.md.
 */
export default defineMod({
  name: '${name}',
  description: 'Adds a note to every prompt and refuses one shell command',
  options: z.object({
    note: z.string().default('${name} is loaded.'),
    refuse: z.string().default('rm -rf /'),
  }),
  register(on, options) {
    on('prompt.submit', async (_$, e, next) => next({ ...e, context: [...(e.context ?? []), options.note] }))

    on('tool.call', { tool: 'Bash' }, async (_$, e, next) => {
      if (String(e.command).includes(options.refuse)) return { deny: \`${name}: "\${options.refuse}" is not allowed\` }
      return next(e)
    })
  },
})
`,
    [`${name}.test.ts`]: `import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { createTestHost } from 'modloop/testing'

// Loaded by path through modloop's own loader, as a distribution would load it.
const mod = fileURLToPath(new URL('./index.ts', import.meta.url))

it('adds its note to the prompt the model receives', async () => {
  const t = await createTestHost({ mods: [[mod, { note: 'remember the tests' }]], script: [{ reply: 'noted' }] })
  const { result } = await t.run('hello')
  expect(t.host.errors).toEqual([])
  expect(JSON.stringify(t.model.requests[0]?.messages[0]?.content)).toContain('remember the tests')
  expect(result.result).toBe('noted')
  await t.close()
})

it('refuses the configured command and lets others through', async () => {
  const t = await createTestHost({ mods: [mod] })
  const ran = () => ({ result: 'ran' })
  expect(await t.emit('tool.call', { tool: 'Bash', tool_use_id: 'toolu_1', command: 'rm -rf /' }, ran)).toEqual({ deny: '${name}: "rm -rf /" is not allowed' })
  expect(await t.emit('tool.call', { tool: 'Bash', tool_use_id: 'toolu_2', command: 'ls' }, ran)).toEqual({ result: 'ran' })
  await t.close()
})
`,
  }
}
