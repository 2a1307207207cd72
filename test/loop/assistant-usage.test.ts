import { describe, expect, it } from 'vitest'
import { Accumulator } from '../../core/loop/accumulate.js'
import { readLines, run, tempCwd, fileOf } from '../sessions/helpers.js'

const USAGE = { input_tokens: 1234, cache_read_input_tokens: 200, cache_creation_input_tokens: 30, output_tokens: 56 }

describe('usage on assistant messages', () => {
  it('carries the usage of message_start (the blocks go out before message_stop), into the transcript too', async () => {
    const cwd = await tempCwd()
    const r = await run([{ reply: 'hello there', usage: USAGE }], 'hi', cwd)
    const assistant = r.messages.find((m) => m.type === 'assistant')!
    // message_start reports the input side in full and one output token so far.
    expect(assistant.message.usage).toMatchObject({ input_tokens: 1234, cache_read_input_tokens: 200, cache_creation_input_tokens: 30, output_tokens: 1 })
    expect(r.result.usage).toMatchObject({ input_tokens: 1234, output_tokens: 56 })
    const line = readLines(fileOf(cwd, r.sessionId)).find((l) => l.type === 'assistant')!
    expect(line.message.usage).toMatchObject({ input_tokens: 1234, cache_read_input_tokens: 200, cache_creation_input_tokens: 30 })
  })

  it('message_delta updates the counts it sends and keeps the others', () => {
    const acc = new Accumulator()
    acc.push({ kind: 'engine', ref: { type: 'message_start', message: { id: 'm', model: 'x', usage: { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 5, cache_creation_input_tokens: null } } } })
    expect(acc.usage).toEqual({ input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 5, cache_creation_input_tokens: 0 })
    acc.push({ kind: 'engine', ref: { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 42, input_tokens: null } } })
    expect(acc.usage).toEqual({ input_tokens: 10, output_tokens: 42, cache_read_input_tokens: 5, cache_creation_input_tokens: 0 })
  })
})
