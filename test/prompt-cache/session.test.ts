import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import { costUsd } from '../../core/model/pricing.js'
import agentMod from '../../mods/agent/index.js'
import promptCache from '../../mods/prompt-cache/index.js'
import { withOptions } from '../helpers/with-options.js'
import { conversation } from '../sdk/conversation.js'
import { runScript, toolsMod } from '../loop/helpers.js'

const MODEL = 'claude-sonnet-4-5'
const SYSTEM = `You are a test agent.\n${'Follow the house rules. '.repeat(300)}`

/** Blob: a read-only tool answering `kb` kilobytes of text that differs from call to call. */
const blobMod = defineMod({
  name: 'blob-tool',
  register(on) {
    on('session.start', async ($, e, next) => {
      await $.tool.register({
        name: 'Blob', description: 'Answer kb kilobytes of text', input: z.object({ kb: z.number(), seed: z.string() }), isReadOnly: true,
        call: (i: { kb: number; seed: string }) => ({ result: `${i.seed}: ${'lorem ipsum dolor '.repeat(Math.ceil((i.kb * 1024) / 18))}`.slice(0, i.kb * 1024) }),
      } as never)
      return next(e)
    })
  },
})

const rounds = (n: number) => [
  ...Array.from({ length: n }, (_, i) => ({ reply: [{ text: `Looking at part ${i}.` }, { tool_use: { name: 'Blob', input: { kb: 2 + ((i * 7) % 19), seed: `part ${i}` } } }] })),
  { reply: 'Done.' },
]

const marksOf = (body: any): number => JSON.stringify(body).split('"cache_control"').length - 1
const unmarked = (v: any): any => JSON.parse(JSON.stringify(v, (k, x) => (k === 'cache_control' ? undefined : x)))

function run(env: Record<string, string> = {}, ttl: '5m' | '1h' = '5m') {
  return runScript(rounds(5), 'Read the parts.', {
    model: MODEL, systemPrompt: SYSTEM, env,
    mods: [toolsMod(), blobMod, withOptions(promptCache, { ttl })],
  })
}

describe('prompt-cache through the real SDK against the fake Messages API', () => {
  it('marks every request on its prefix and its last message; each round reads the one before from the cache', async () => {
    const r = await run()
    expect(r.result.subtype).toBe('success')
    expect(r.requests).toHaveLength(6)
    for (const { body } of r.requests) {
      expect(marksOf(body)).toBeLessThanOrEqual(4)
      expect(body.system.at(-1).cache_control).toEqual({ type: 'ephemeral' })
      expect(body.messages.at(-1).content.at(-1).cache_control).toEqual({ type: 'ephemeral' })
    }
    const usages = r.messages.filter((m: any) => m.type === 'assistant' && m.message.content[0].type === 'text').map((m: any) => m.message.usage)
    expect(usages).toHaveLength(6)
    expect(usages[0].cache_read_input_tokens).toBe(0)
    expect(usages[0].cache_creation_input_tokens).toBeGreaterThan(1500)
    for (let i = 1; i < usages.length; i++) {
      // Everything the round before sent (read or written) is read back now.
      const before = usages[i - 1].cache_read_input_tokens + usages[i - 1].cache_creation_input_tokens
      expect(usages[i].cache_read_input_tokens).toBe(before)
      expect(usages[i].cache_creation_input_tokens).toBeGreaterThan(0)
    }
    const m = r.result.modelUsage[MODEL]!
    const sum = (k: string) => usages.reduce((s: number, u: any) => s + u[k], 0)
    expect(m.cacheReadInputTokens).toBe(sum('cache_read_input_tokens'))
    expect(m.cacheCreationInputTokens).toBe(sum('cache_creation_input_tokens'))
    expect(m.cacheCreationEphemeral5mInputTokens).toBe(m.cacheCreationInputTokens)
    expect(r.result.usage.cache_read_input_tokens).toBe(m.cacheReadInputTokens)
    const priced = costUsd(MODEL, {
      input_tokens: m.inputTokens, output_tokens: m.outputTokens, cache_read_input_tokens: m.cacheReadInputTokens,
      cache_creation_input_tokens: m.cacheCreationInputTokens, cache_creation: { ephemeral_5m_input_tokens: m.cacheCreationInputTokens, ephemeral_1h_input_tokens: 0 },
    })
    expect(r.result.total_cost_usd).toBeCloseTo(priced, 10)
    // Reads at a tenth of the input price: far below what the same tokens cost uncached.
    expect(priced).toBeLessThan(costUsd(MODEL, { input_tokens: m.inputTokens + m.cacheReadInputTokens + m.cacheCreationInputTokens, output_tokens: m.outputTokens }))
  })

  it('sends a byte-stable prefix: each request starts with the whole of the one before', async () => {
    const r = await run()
    for (let i = 1; i < r.requests.length; i++) {
      const [a, b] = [unmarked(r.requests[i - 1]!.body), unmarked(r.requests[i]!.body)]
      expect(JSON.stringify(b.tools)).toBe(JSON.stringify(a.tools))
      expect(JSON.stringify(b.system)).toBe(JSON.stringify(a.system))
      const content = (m: any) => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content)
      const norm = (ms: any[]) => JSON.stringify(ms.map((m) => ({ role: m.role, content: content(m) })))
      expect(norm(b.messages.slice(0, a.messages.length))).toBe(norm(a.messages))
    }
  })

  it('keeps the prefix byte-stable with the default distribution: tools, sections, date and memory files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'modloop-cache-'))
    try {
      await writeFile(join(dir, 'CLAUDE.md'), `# House rules\n${'Keep functions small. '.repeat(200)}\n`)
      const r = await runScript(rounds(3), 'Read the parts.', {
        bare: false, cwd: dir, model: MODEL, mods: [blobMod], permissionMode: 'bypassPermissions', env: { HOME: dir },
      })
      expect(r.result.subtype).toBe('success')
      expect(r.requests).toHaveLength(4)
      expect(JSON.stringify(r.requests[0]!.body.messages)).toContain('Keep functions small.')
      expect(JSON.stringify(r.requests[0]!.body.system)).toContain("Today's date")
      for (let i = 1; i < r.requests.length; i++) {
        const [a, b] = [r.requests[i - 1]!.body, r.requests[i]!.body]
        expect(JSON.stringify(unmarked(b.tools))).toBe(JSON.stringify(unmarked(a.tools)))
        expect(JSON.stringify(unmarked(b.system))).toBe(JSON.stringify(unmarked(a.system)))
        expect(JSON.stringify(unmarked(b.messages).slice(0, a.messages.length))).toBe(JSON.stringify(unmarked(a.messages)))
        // The default distribution caches: each round reads what the one before sent.
        expect(marksOf(b)).toBeGreaterThan(0)
      }
      expect(r.result.usage.cache_read_input_tokens).toBeGreaterThan(0)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('marks a subagent\'s requests the same way: its rounds read each other from the cache', async () => {
    const blob = (seed: string) => ({ tool_use: { name: 'Blob', input: { kb: 8, seed } } })
    const r = await runScript([
      { reply: [{ tool_use: { name: 'Agent', input: { description: 'read parts', prompt: 'Read two parts.' } } }] },
      { reply: [blob('one')] }, { reply: [blob('two')] }, { reply: 'report' },
      { reply: 'ok' },
    ], 'go', { model: MODEL, mods: [toolsMod(), blobMod, agentMod, promptCache], forwardSubagentText: true })
    expect(r.result.result).toBe('ok')
    const child = r.requests.slice(1, 4).map((q) => q.body)
    for (const body of child) expect(body.messages.at(-1).content.at(-1).cache_control).toEqual({ type: 'ephemeral' })
    const reads = r.messages.filter((m: any) => m.type === 'assistant' && m.parent_tool_use_id).map((m: any) => m.message.usage.cache_read_input_tokens)
    expect(Math.max(...reads)).toBeGreaterThan(2000)
  })

  it('counts cache reads and writes as context (the meter behind compaction and "% context")', async () => {
    const c = await conversation(rounds(3), { model: MODEL, systemPrompt: SYSTEM, mods: [toolsMod(), blobMod, promptCache] })
    try {
      await c.say('Read the parts.')
      const last = [...c.seen].reverse().find((m: any) => m.type === 'assistant') as any
      const u = last.message.usage
      expect(u.cache_read_input_tokens).toBeGreaterThan(u.input_tokens)
      const context = await c.q.getContextUsage()
      // What the last request sent, read and written alike, plus its short answer ('Done.').
      const sent = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens
      expect(context.totalTokens - sent).toBeGreaterThan(0)
      expect(context.totalTokens - sent).toBeLessThan(10)
    } finally {
      await c.end()
    }
  })

  it('marks nothing with DISABLE_PROMPT_CACHING=1: every round pays for its whole input', async () => {
    const r = await run({ DISABLE_PROMPT_CACHING: '1' })
    for (const { body } of r.requests) expect(marksOf(body)).toBe(0)
    expect(r.result.usage.cache_read_input_tokens).toBe(0)
    expect(r.result.usage.cache_creation_input_tokens).toBe(0)
  })

  it('reads DISABLE_PROMPT_CACHING as Claude Code does ("yes", "on") and honours the per-family switches', async () => {
    const once = (env: Record<string, string>) => runScript([{ reply: 'ok' }], 'hi', { model: MODEL, systemPrompt: SYSTEM, env, mods: [toolsMod(), promptCache] })
    for (const env of [{ DISABLE_PROMPT_CACHING: 'yes' }, { DISABLE_PROMPT_CACHING: ' On ' }, { DISABLE_PROMPT_CACHING_SONNET: '1' }] as Record<string, string>[]) {
      expect(marksOf((await once(env)).requests[0]!.body), JSON.stringify(env)).toBe(0)
    }
    // Another family's switch, or a switch that is off, leaves this model's requests marked.
    for (const env of [{ DISABLE_PROMPT_CACHING_OPUS: '1' }, { DISABLE_PROMPT_CACHING: '0' }] as Record<string, string>[]) {
      expect(marksOf((await once(env)).requests[0]!.body), JSON.stringify(env)).toBeGreaterThan(0)
    }
  })

  it('with ttl 1h, writes for an hour at twice the input price', async () => {
    const r = await run({}, '1h')
    expect(r.requests[0]!.body.system.at(-1).cache_control).toEqual({ type: 'ephemeral', ttl: '1h' })
    const m = r.result.modelUsage[MODEL]!
    expect(m.cacheCreationEphemeral1hInputTokens).toBe(m.cacheCreationInputTokens)
    expect(m.cacheCreationEphemeral5mInputTokens).toBe(0)
    const hourWrite = costUsd(MODEL, { cache_creation_input_tokens: 1_000_000, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 1_000_000 } })
    expect(hourWrite).toBe(6)
  })

  it('writes for an hour with ENABLE_PROMPT_CACHING_1H=1, and for 5 minutes whenever FORCE_PROMPT_CACHING_5M=1', async () => {
    const ttls = async (env: Record<string, string>, ttl: '5m' | '1h' = '5m') => {
      const r = await runScript([{ reply: 'ok' }], 'hi', { model: MODEL, systemPrompt: SYSTEM, env, mods: [toolsMod(), withOptions(promptCache, { ttl })] })
      const marks = [...JSON.stringify(r.requests[0]!.body).matchAll(/"cache_control":(\{[^}]*\})/g)]
      return new Set(marks.map((m) => JSON.parse(m[1]!).ttl ?? '5m'))
    }
    expect(await ttls({ ENABLE_PROMPT_CACHING_1H: '1' })).toEqual(new Set(['1h']))
    expect(await ttls({ ENABLE_PROMPT_CACHING_1H: '1', FORCE_PROMPT_CACHING_5M: '1' })).toEqual(new Set(['5m']))
    expect(await ttls({ FORCE_PROMPT_CACHING_5M: 'true' }, '1h')).toEqual(new Set(['5m']))
  })
})
