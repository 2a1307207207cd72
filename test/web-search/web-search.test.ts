import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => { dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-web-search-'))) })
afterAll(() => rm(dir, { recursive: true, force: true }))

const cli = (args: string[], script: unknown, env: Record<string, string> = {}) =>
  runCli(['-p', 'go', '--output-format', 'stream-json', '--verbose', ...args], { script, cwd: dir, env: { MODLOOP_HOME: join(dir, 'home'), ...env } })
const linesOf = (out: string) => out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>)
const toolResults = (out: string) => linesOf(out).filter((m) => m.type === 'user' && m.tool_use_result !== undefined)
const search = (input: Record<string, unknown>) => ({ tool_use: { name: 'WebSearch', input } })

const REMINDER = '\n\n\nREMINDER: You MUST include the sources above in your response to the user using markdown hyperlinks.'
const searchReply = {
  reply: [
    { text: ' Searching. ' },
    { server_tool_use: { input: { query: 'cat facts' } } },
    { web_search_tool_result: { content: [{ title: 'Cat facts', url: 'https://cats.example/facts', page_age: '2 days ago' }] } },
    { text: 'Cats sleep a lot.' },
    { server_tool_use: { input: { query: 'cat sleep' } } },
    { web_search_tool_result: { content: { error_code: 'unavailable' } } },
  ],
  usage: { input_tokens: 1000, output_tokens: 50 },
}

describe('WebSearch', () => {
  it('asks the model with the API web search tool and hands back the words and links it found, counting the searches in the cost', async () => {
    const r = await cli(['--dangerously-skip-permissions', '--model', 'claude-sonnet-4-5'], [
      { reply: [search({ query: 'cat facts', allowed_domains: ['cats.example'] })], usage: { input_tokens: 10, output_tokens: 10 } },
      searchReply,
      { reply: 'Cats sleep.', usage: { input_tokens: 10, output_tokens: 10 } },
    ])
    expect(r.code).toBe(0)
    const side = r.requests[1]!.body as any
    expect(side).toMatchObject({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: expect.stringContaining('cat facts') }] })
    expect(side.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', allowed_domains: ['cats.example'], max_uses: 8 }])

    const [user] = toolResults(r.out)
    expect(user!.message.content[0]).toMatchObject({
      content: 'Web search results for query: "cat facts"\n\nSearching.\n\nLinks: [{"title":"Cat facts","url":"https://cats.example/facts"}]\n\nCats sleep a lot.\n\nWeb search error: unavailable' + REMINDER,
    })
    expect(user!.message.content[0].is_error).toBeUndefined()
    expect(user!.tool_use_result).toEqual({
      query: 'cat facts',
      results: ['Searching.', { tool_use_id: 'srvtoolu_1_1', content: [{ title: 'Cat facts', url: 'https://cats.example/facts' }] }, 'Cats sleep a lot.', 'Web search error: unavailable'],
      durationSeconds: expect.any(Number),
      searchCount: 2,
    })

    const result = linesOf(r.out).at(-1)!
    const usage = result.modelUsage['claude-sonnet-4-5']
    expect(usage).toMatchObject({ inputTokens: 1020, outputTokens: 70, webSearchRequests: 2 })
    // Sonnet: $3 / $15 per million tokens, and $0.01 a search.
    expect(result.total_cost_usd).toBeCloseTo((1020 * 3 + 70 * 15) / 1e6 + 0.02, 8)
  })

  it('reports a search that found nothing, and a failed search request as a tool error with the API message', async () => {
    const r = await cli(['--dangerously-skip-permissions'], [
      { reply: [search({ query: 'nothing here' })] },
      { reply: [{ server_tool_use: { input: { query: 'nothing here' } } }, { web_search_tool_result: { content: [] } }] },
      { reply: [search({ query: 'broken' })] },
      { error: { status: 400, type: 'invalid_request_error', message: 'web search is not enabled' } },
      { reply: 'done' },
    ])
    const [empty, broken] = toolResults(r.out)
    expect(empty!.message.content[0].content).toBe('Web search results for query: "nothing here"\n\nNo links found.' + REMINDER)
    expect(empty!.tool_use_result).toMatchObject({ results: [{ tool_use_id: 'srvtoolu_1_1', content: [] }], searchCount: 1 })
    expect(broken!.message.content[0]).toMatchObject({ is_error: true, content: expect.stringMatching(/^API Error: 400 .*web search is not enabled/) })
    expect(linesOf(r.out).at(-1)).toMatchObject({ subtype: 'success', result: 'done' })
  })

  it('refuses both domain lists, and a too-short query, before any request', async () => {
    const r = await cli(['--dangerously-skip-permissions'], [
      { reply: [search({ query: 'cats', allowed_domains: ['a.example'], blocked_domains: ['b.example'] }), search({ query: 'a' })] },
      { reply: 'ok' },
    ])
    expect(r.requests).toHaveLength(2)
    const results = (r.requests[1]!.body as any).messages.at(-1).content
    expect(results[0]).toMatchObject({ is_error: true, content: expect.stringContaining('Cannot specify both allowed_domains and blocked_domains') })
    expect(results[1]).toMatchObject({ is_error: true, content: expect.stringContaining('query') })
  })

  it('stops searching past CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION, telling the model why', async () => {
    const r = await cli(['--dangerously-skip-permissions'], [
      { reply: [search({ query: 'first' })] },
      { reply: 'found it' },
      { reply: [search({ query: 'second' })] },
      { reply: 'ok' },
    ], { CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION: '1' })
    expect(r.requests).toHaveLength(4)
    const [, second] = toolResults(r.out)
    expect(second!.message.content[0].content).toContain('CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION')
    expect(second!.tool_use_result).toMatchObject({ query: 'second', searchCount: 0 })
    expect((r.requests[3]!.body as any).tools.some((t: any) => t.type === 'web_search_20250305')).toBe(false)
  })

  it('runs under a bare WebSearch allow rule; otherwise asks, in plan mode as a search and not as a change', async () => {
    const allowed = await cli(['--allowedTools', 'WebSearch'], [{ reply: [search({ query: 'cats' })] }, { reply: 'searched' }, { reply: 'ok' }])
    expect(toolResults(allowed.out)[0]!.tool_use_result).toMatchObject({ results: ['searched'] })
    for (const args of [[], ['--permission-mode', 'plan']]) {
      const denied = await cli(args, [{ reply: [search({ query: 'cats' })] }, { reply: 'ok' }])
      expect(denied.requests).toHaveLength(2)
      expect(linesOf(denied.out).at(-1)!.permission_denials).toMatchObject([{ tool_name: 'WebSearch' }])
      expect(toolResults(denied.out)[0]!.message.content[0].content).not.toContain('plan mode')
    }
  })
})
