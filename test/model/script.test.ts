import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isModloopError } from '../../core/errors.js'
import Anthropic from '@anthropic-ai/sdk'
import { assembleMessage, createScriptCursor, eventsForStep, loadScript, parseScript } from '../../testing/model/script.js'
import { startFakeAnthropic } from '../../testing/fake-anthropic.js'

function scriptError(value: unknown): { field?: string; message: string } {
  try {
    parseScript(value)
  } catch (err) {
    if (isModloopError(err, 'MODLOOP_ERR_SCRIPT')) return err
    throw err
  }
  throw new Error('the script was accepted')
}

describe('model scripts', () => {
  it('accepts { steps } and bare arrays, normalising string replies', () => {
    expect(parseScript([{ reply: 'hi' }])).toEqual({ steps: [{ reply: [{ text: 'hi' }] }] })
    expect(parseScript({ steps: [{ error: { status: 429 }, times: 2 }] }).steps[0]).toEqual({ error: { status: 429 }, times: 2 })
  })

  it('names the step and field of a malformed script', () => {
    const err = scriptError({ steps: [{ reply: 'ok' }, { reply: [{ text: 'x' }, { tool_use: { input: {} } }] }] })
    expect(err.field).toBe('steps[1].reply[1].tool_use.name')
    expect(err.message).toContain('steps[1].reply[1].tool_use.name')
  })

  it.each([
    [[{ reply: 'ok', stop_reason: 'done' }], 'steps[0].stop_reason'],
    [[{ reply: 'ok', stop_reasn: 'end_turn' }], 'steps[0]'],
    [[{ reply: 42 }], 'steps[0].reply'],
    [[{ reply: [{ picture: 'x' }] }], 'steps[0].reply[0]'],
    [[{ error: { status: 200 } }], 'steps[0].error.status'],
    [[{ error: { status: 500 }, times: 0 }], 'steps[0].times'],
    [[{ reply: 'ok', expect: { toolResults: -1 } }], 'steps[0].expect.toolResults'],
    [[{}], 'steps[0]'],
    [{ step: [] }, 'steps'],
  ])('rejects %j at %s', (value, field) => {
    expect(scriptError(value).field).toBe(field)
  })

  describe('files', () => {
    let dir: string
    beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'modloop-script-')) })
    afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

    it('loads .json and .mjs scripts', async () => {
      await writeFile(join(dir, 's.json'), JSON.stringify({ steps: [{ reply: 'from json' }] }))
      await writeFile(join(dir, 's.mjs'), 'export default [{ reply: "from mjs" }]\n')
      expect((await loadScript(join(dir, 's.json'))).steps[0]).toEqual({ reply: [{ text: 'from json' }] })
      expect((await loadScript(join(dir, 's.mjs'))).steps[0]).toEqual({ reply: [{ text: 'from mjs' }] })
    })

    it('reports an unreadable or malformed file with its path', async () => {
      await writeFile(join(dir, 'bad.json'), '{ nope')
      await writeFile(join(dir, 'wrong.json'), JSON.stringify([{ reply: [{ text: 1 }] }]))
      await expect(loadScript(join(dir, 'bad.json'))).rejects.toMatchObject({ code: 'MODLOOP_ERR_SCRIPT', file: join(dir, 'bad.json') })
      await expect(loadScript(join(dir, 'missing.json'))).rejects.toMatchObject({ code: 'MODLOOP_ERR_SCRIPT' })
      await expect(loadScript(join(dir, 'wrong.json'))).rejects.toMatchObject({ field: 'steps[0].reply[0].text' })
    })
  })

  it('walks steps in order, repeating error steps, then reports exhaustion', () => {
    const cursor = createScriptCursor(parseScript([{ error: { status: 529 }, times: 2 }, { reply: 'ok' }]))
    const req = { model: 'm', messages: [] }
    expect(cursor.next(req)).toMatchObject({ kind: 'error', stepIndex: 0, status: 529, type: 'overloaded_error' })
    expect(cursor.next(req)).toMatchObject({ kind: 'error', stepIndex: 0 })
    expect(cursor.next(req)).toMatchObject({ kind: 'reply', stepIndex: 1 })
    expect(cursor.next(req)).toMatchObject({ kind: 'error', status: 500, exhausted: true, message: expect.stringContaining('exhausted after 2 steps') })
  })

  it('a step with `when` answers the first request it matches, out of order; the others go in order', () => {
    const cursor = createScriptCursor(parseScript([
      { reply: 'main 1' },
      { reply: 'sub 1', when: { firstUserText: 'side job' } },
      { reply: 'sub 2', when: { firstUserText: 'side job' } },
      { reply: 'main 2' },
    ]))
    const main = { model: 'm', messages: [{ role: 'user', content: 'go' }] }
    const sub = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'the side job' }] }] }
    const texts = [cursor.next(sub), cursor.next(main), cursor.next(sub), cursor.next(main)]
      .map((a) => (a.kind === 'reply' ? a.step.reply[0] : a))
    expect(texts).toEqual([{ text: 'sub 1' }, { text: 'main 1' }, { text: 'sub 2' }, { text: 'main 2' }])
    expect(cursor.next(sub)).toMatchObject({ kind: 'error', exhausted: true })
  })

  it('builds the Messages API event sequence for a step', () => {
    const [step] = parseScript([{ reply: [{ thinking: 'hm' }, { text: 'hi' }, { tool_use_raw: { name: 'T', json: '{"a":' } }] }]).steps
    const events = eventsForStep(step as never, { model: 'claude-haiku-4-5', messages: [] }, 3)
    expect(events.map((e) => (e.type === 'content_block_delta' ? e.delta.type : e.type))).toEqual([
      'message_start',
      'content_block_start', 'thinking_delta', 'signature_delta', 'content_block_stop',
      'content_block_start', 'text_delta', 'content_block_stop',
      'content_block_start', 'input_json_delta', 'content_block_stop',
      'message_delta', 'message_stop',
    ])
    expect(events[0]).toMatchObject({ message: { id: 'msg_step3', role: 'assistant', model: 'claude-haiku-4-5', content: [] } })
    expect(events[8]).toMatchObject({ content_block: { type: 'tool_use', id: 'toolu_3_1', name: 'T' } })
    expect(events[9]).toMatchObject({ delta: { partial_json: '{"a":' } })
    expect(events[11]).toMatchObject({ delta: { stop_reason: 'tool_use' } })
  })
})

describe('server tool blocks', () => {
  const script = [{
    reply: [
      { server_tool_use: { input: { query: 'cats' } } },
      { web_search_tool_result: { content: [{ title: 'Cats', url: 'https://cats.example/' }] } },
      { server_tool_use: { id: 'srvtoolu_x', input: { query: 'dogs' } } },
      { web_search_tool_result: { content: { error_code: 'max_uses_exceeded' } } },
      { text: 'Cats purr.' },
    ],
  }]

  it('streams a search as the API does: the call input in deltas, the result whole in its start, the count in the final usage', () => {
    const [step] = parseScript(script).steps
    const events = eventsForStep(step as never, { model: 'm', messages: [] }, 2)
    expect(events.map((e) => (e.type === 'content_block_delta' ? e.delta.type : e.type))).toEqual([
      'message_start',
      'content_block_start', 'input_json_delta', 'content_block_stop',
      'content_block_start', 'content_block_stop',
      'content_block_start', 'input_json_delta', 'content_block_stop',
      'content_block_start', 'content_block_stop',
      'content_block_start', 'text_delta', 'content_block_stop',
      'message_delta', 'message_stop',
    ])
    expect(events[1]).toMatchObject({ content_block: { type: 'server_tool_use', id: 'srvtoolu_2_1', name: 'web_search', input: {} } })
    expect(events[4]).toMatchObject({
      content_block: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_2_1', content: [{ type: 'web_search_result', title: 'Cats', url: 'https://cats.example/', page_age: null }] },
    })
    expect(events[9]).toMatchObject({ content_block: { tool_use_id: 'srvtoolu_x', content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } } })
    expect(events.at(-2)).toMatchObject({ delta: { stop_reason: 'end_turn' }, usage: { server_tool_use: { web_search_requests: 2 } } })
    const message = assembleMessage(events)
    expect(message.content[0]).toMatchObject({ type: 'server_tool_use', input: { query: 'cats' } })
    expect(message.usage.server_tool_use).toEqual({ web_search_requests: 2, web_fetch_requests: 0 })
  })

  it('reaches a client through the fake server and the SDK', async () => {
    const server = await startFakeAnthropic({ script })
    try {
      const client = new Anthropic({ baseURL: server.url, apiKey: 'test' })
      const message = await client.messages.stream({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'go' }] }).finalMessage()
      expect(message.content.map((b) => b.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'server_tool_use', 'web_search_tool_result', 'text'])
      expect(message.content[2]).toMatchObject({ id: 'srvtoolu_x', input: { query: 'dogs' } })
      expect(message.usage.server_tool_use).toMatchObject({ web_search_requests: 2 })
    } finally {
      await server.close()
    }
  })

  it('names the field of a malformed search result', () => {
    expect(() => parseScript([{ reply: [{ web_search_tool_result: { content: [{ title: 'no url' }] } }] }])).toThrow(/steps\[0\]\.reply\[0\]\.web_search_tool_result\.content/)
  })
})
