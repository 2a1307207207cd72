import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runScript } from '../loop/helpers.js'

const dir = mkdtempSync(join(tmpdir(), 'modloop-search-results-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const search = (query: string) => ({ reply: [{ tool_use: { name: 'ToolSearch', input: { query } } }] })
// Where the cache breakpoints fall is not what these tests are about.
const uncached = ({ cache_control: _, ...block }: { cache_control?: unknown }) => block
const run = (script: unknown[]) =>
  runScript(script, 'go', { bare: false, mods: [], cwd: dir, permissionMode: 'bypassPermissions', env: { HOME: dir, ENABLE_TOOL_SEARCH: 'true' } })

describe('ToolSearch results', () => {
  it('follows a result that loaded tools with a text, and a result that found none with nothing', async () => {
    const r = await run([search('select:CronCreate'), search('select:CronList,CronDelete'), search('notebook jupyter'), search('zzzqqq'), { reply: 'done' }])
    const answers = (r.requests.at(-1)!.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'user').slice(1).map((m) => (m.content as object[]).map(uncached))
    const ref = (tool_name: string) => ({ type: 'tool_reference', tool_name })
    const loaded = { type: 'text', text: 'Tool loaded.' }
    expect(answers).toEqual([
      [{ type: 'tool_result', tool_use_id: expect.any(String), content: [ref('CronCreate')] }, loaded],
      [{ type: 'tool_result', tool_use_id: expect.any(String), content: [ref('CronList'), ref('CronDelete')] }, loaded],
      [{ type: 'tool_result', tool_use_id: expect.any(String), content: [ref('NotebookEdit')] }, loaded],
      [{ type: 'tool_result', tool_use_id: expect.any(String), content: 'No matching deferred tools found' }],
    ])
  })
})
