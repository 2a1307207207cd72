import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import { runScript } from '../loop/helpers.js'

const dir = mkdtempSync(join(tmpdir(), 'modloop-deferred-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

type Def = { name: string; defer_loading?: boolean; input_schema?: any }
const names = (r: { body: any }) => (r.body.tools as Def[]).map((t) => t.name + (t.defer_loading ? '(deferred)' : ''))
const DEFERRED = ['CronCreate', 'CronDelete', 'CronList', 'EnterWorktree', 'ExitPlanMode', 'ExitWorktree', 'Monitor', 'NotebookEdit', 'SendMessage', 'TaskStop', 'WebFetch', 'WebSearch']
// The default distribution, as a user gets it.
const run = (script: unknown[], env: Record<string, string>, o: { model?: string; mods?: never[] } = {}) =>
  runScript(script, 'go', { bare: false, mods: o.mods ?? [], cwd: dir, model: o.model, permissionMode: 'bypassPermissions', env: { HOME: dir, ...env } })

// A tool placed behind ToolSearch, counting how often zod builds its input schema.
let conversions = 0
const probe = defineMod({
  name: 'probe',
  register(on) {
    on('session.start', async ($, e, next) => {
      // zod reads a lazy field's schema when converting the whole to JSON Schema, not before.
      const input = z.object({ text: z.lazy(() => { conversions++; return z.string() }) })
      await $.tool.register({ name: 'Probe', description: 'A rarely used tool', input, isReadOnly: true, call: () => ({ result: 'probed' }) } as never)
      return next(e)
    })
    on('tool.describe', async (_$, e, next) => {
      const r = await next(e)
      return e.tool === 'Probe' ? { ...r, isDeferred: true } : r
    })
  },
})

describe('built-in tools behind tool search', () => {
  it.each([
    ['ENABLE_TOOL_SEARCH=false', { ENABLE_TOOL_SEARCH: 'false' }],
    ['ENABLE_TOOL_SEARCH unset, through a base URL not Anthropic\'s', {}],
  ])('sends every built-in schema upfront with %s', async (_what, env: Record<string, string>) => {
    const r = await run([{ reply: 'done' }], env)
    const sent = names(r.requests[0]!)
    expect(sent).toEqual(expect.arrayContaining(DEFERRED))
    expect(sent.some((n) => n.includes('(deferred)') || n === 'ToolSearch')).toBe(false)
  })

  it('sends the seldom-used built-ins by name only, and ToolSearch loads one', async () => {
    const r = await run([
      { reply: [{ tool_use: { name: 'ToolSearch', input: { query: 'select:CronList' } } }] },
      { reply: [{ tool_use: { name: 'CronList', input: {} } }] },
      { reply: 'done' },
    ], { ENABLE_TOOL_SEARCH: 'true' })
    const [first, second] = r.requests
    expect(names(first!)).toEqual(['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash', 'Agent', 'ListAgents', 'ScheduleWakeup', 'ToolSearch', 'DeferredToolPlaceholder(deferred)'])
    const reminder = first!.body.messages[0].content[0].text as string
    expect(reminder).toContain(`select:<name>[,<name>...]`)
    expect(reminder).toContain(`\n${DEFERRED.join('\n')}\n`)
    expect(names(second!).at(-1)).toBe('CronList(deferred)')
    expect((second!.body.tools as Def[]).at(-1)!.input_schema).toMatchObject({ type: 'object' })
    expect(JSON.stringify(r.requests[2]!.body.messages.at(-1))).toContain('No scheduled jobs')
  })

  it('converts a deferred tool\'s input schema only for a request that carries it', async () => {
    conversions = 0
    const r = await run([{ reply: 'hello' }], { ENABLE_TOOL_SEARCH: 'true' }, { mods: [probe as never] })
    expect(names(r.requests[0]!)).not.toContain('Probe(deferred)')
    expect(conversions).toBe(0)
    const loaded = await run([
      { reply: [{ tool_use: { name: 'ToolSearch', input: { query: 'select:Probe' } } }] },
      { reply: 'done' },
    ], { ENABLE_TOOL_SEARCH: 'true' }, { mods: [probe as never] })
    expect((loaded.requests[1]!.body.tools as Def[]).at(-1)).toMatchObject({ name: 'Probe', input_schema: { properties: { text: { type: 'string' } } } })
    expect(conversions).toBeGreaterThan(0)
  })

  it('sends every schema upfront to a Claude 3 model, which cannot load deferred tools', async () => {
    const r = await run([{ reply: 'done' }], { ENABLE_TOOL_SEARCH: 'true' }, { model: 'claude-3-5-haiku-20241022', mods: [probe as never] })
    const sent = names(r.requests[0]!)
    expect(sent).toEqual(expect.arrayContaining([...DEFERRED, 'Probe']))
    expect(sent.some((n) => n.includes('(deferred)') || n === 'ToolSearch')).toBe(false)
  })
})
