import { describe, expect, it } from 'vitest'
import { runScript } from './helpers.js'

// Responses written as raw stream events (a script's `events`), for blocks the reply format cannot make.

const start = { type: 'message_start', message: { id: 'msg_raw', type: 'message', role: 'assistant', model: 'claude-opus-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } }
const stop = (reason: string) => [{ type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 5 } }, { type: 'message_stop' }]
const citation = { type: 'web_search_result_location', cited_text: 'purr', url: 'https://cats.example', title: 'Cats', encrypted_index: 'EI' }

describe('blocks sent back as the API streamed them', () => {
  it("a server tool's streamed input and a text's citations reach the next request and the stream", async () => {
    const run = await runScript([
      {
        events: [
          start,
          { type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 'srvtoolu_9', name: 'web_search', input: {} } },
          { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"query":' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"cats"}' } },
          { type: 'content_block_stop', index: 0 },
          { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '', citations: null } },
          { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Cats purr.' } },
          { type: 'content_block_delta', index: 1, delta: { type: 'citations_delta', citation } },
          { type: 'content_block_stop', index: 1 },
          { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'Echo', input: {} } },
          { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"text":"hi"}' } },
          { type: 'content_block_stop', index: 2 },
          ...stop('tool_use'),
        ],
      },
      { reply: 'done' },
    ])
    expect(run.result).toMatchObject({ subtype: 'success', result: 'done' })
    const sent = run.requests[1]!.body.messages[1].content
    expect(sent[0]).toEqual({ type: 'server_tool_use', id: 'srvtoolu_9', name: 'web_search', input: { query: 'cats' } })
    expect(sent[1]).toMatchObject({ type: 'text', text: 'Cats purr.', citations: [citation] })
    const shown = run.messages.flatMap((m) => (m.type === 'assistant' ? m.message.content : []))
    expect(shown[0]).toMatchObject({ input: { query: 'cats' } })
    expect(shown[1]).toMatchObject({ citations: [citation] })
  })
})
