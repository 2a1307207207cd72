import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runScript } from '../loop/helpers.js'

const dir = mkdtempSync(join(tmpdir(), 'modloop-search-unloaded-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const call = (name: string, input: unknown) => ({ reply: [{ tool_use: { name, input } }] })
const run = (script: unknown[]) =>
  runScript(script, 'go', { bare: false, mods: [], cwd: dir, permissionMode: 'bypassPermissions', env: { HOME: dir, ENABLE_TOOL_SEARCH: 'true' } })

type Block = { type: string; content?: unknown; is_error?: boolean }
/** The error texts the model read, in order. */
const errors = (r: Awaited<ReturnType<typeof run>>) =>
  (r.requests.at(-1)!.body.messages as { role: string; content: Block[] | string }[])
    .flatMap((m) => (m.role === 'user' && Array.isArray(m.content) ? m.content : []))
    .filter((b) => b.type === 'tool_result' && b.is_error)
    .map((b) => (typeof b.content === 'string' ? b.content : JSON.stringify(b.content)))

describe('calls to deferred tools', () => {
  it('tells how to load a tool whose schema was never sent, with the schema, when its input fails; not once it is loaded', async () => {
    const r = await run([
      call('CronCreate', { cron: 5 }),
      call('ToolSearch', { query: 'select:CronCreate' }),
      call('CronCreate', { cron: 5 }),
      { reply: 'done' },
    ])
    const [blind, loaded] = errors(r)
    const schema = (r.requests.at(-1)!.body.tools as { name: string; input_schema: unknown }[]).find((t) => t.name === 'CronCreate')!.input_schema
    expect(blind).toContain('InputValidationError')
    expect(blind).toContain('"select:CronCreate"')
    expect(blind).toContain(JSON.stringify(schema))
    expect(loaded).toContain('InputValidationError')
    expect(loaded).not.toContain('select:CronCreate')
  })
})
