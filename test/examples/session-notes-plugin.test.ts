import { afterEach, describe, expect, it } from 'vitest'
import { createTestHost, type TestHost } from '../../testing.js'
import { example } from './paths.js'

const plugin = example('mods/session-notes-plugin')
let t: TestHost | undefined
afterEach(() => t?.close())

const firstUserText = (t: TestHost) => JSON.stringify(t.model.requests[0]!.messages[0]!.content)

describe('example: a Claude-style plugin directory', () => {
  it('loads as the mod named by plugin.json, with its userConfig default', async () => {
    t = await createTestHost({ mods: [plugin], script: [{ reply: 'noted' }] })
    expect(t.host.errors).toEqual([])
    expect(t.host.get('session-notes')).toMatchObject({ version: '1.0.0', options: { note: 'Run the tests before you say a change is done.' } })
    await t.run('change something')
    expect(firstUserText(t)).toContain('Project note: Run the tests before you say a change is done.')
  })

  it('takes the distribution\'s options over the defaults', async () => {
    t = await createTestHost({ mods: [[plugin, { note: 'Use tabs.' }]], script: [{ reply: 'noted' }] })
    await t.run('change something')
    expect(firstUserText(t)).toContain('Project note: Use tabs.')
  })
})
