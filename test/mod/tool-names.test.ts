import { expect, it } from 'vitest'
import { createTestHost, defineMod } from '../../testing.js'

it('a mod named as a scoped package registers a tool: its name is reduced to what a tool name may hold', async () => {
  const mod = defineMod({ name: '@acme/tools', register(on) {
    on('session.start', async ($, e, next) => {
      await $.tool.register({ name: 'count', description: 'Counts' })
      return next(e)
    })
  } })
  const t = await createTestHost({ mods: [mod], script: [{ reply: 'ok' }] })
  await t.run('hello')
  expect(t.host.failures).toEqual([])
  expect(t.model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['mcp___acme_tools__count'])
  await t.close()
})
