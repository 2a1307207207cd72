import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { SDKMessage } from '../../core/loop/messages.js'
import { toLine, type LineBase } from '../../mods/transcripts/lines.js'
import { TranscriptWriter } from '../../mods/transcripts/writer.js'

const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }

/**
 * Writes a session of `rounds` tool rounds (four history messages each: prompt, response with a
 * tool call, its result, the answer; then the turn result) with the transcripts mod's own writer,
 * and returns the history the loop would have held.
 */
export function writeBigSession(path: string, sessionId: string, cwd: string, rounds: number): MessageParam[] {
  const base: LineBase = { sessionId, cwd, isSidechain: false, userType: 'external', entrypoint: 'sdk-ts', version: '0.0.0' }
  const writer = new TranscriptWriter(path)
  const history: MessageParam[] = []
  const stamp = (m: Record<string, unknown>) => ({ ...m, uuid: crypto.randomUUID(), session_id: sessionId }) as unknown as SDKMessage
  const assistant = (id: string, block: any) => stamp({ type: 'assistant', message: { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [block], stop_reason: null, stop_sequence: null, usage }, parent_tool_use_id: null })
  let cost = 0
  for (let r = 0; r < rounds; r++) {
    const prompt = [{ type: 'text' as const, text: `prompt ${r}` }]
    const text = { type: 'text', text: `looking at ${r}`, citations: null }
    const use = { type: 'tool_use', id: `toolu_${r}`, name: 'Echo', input: { text: `x${r}` } }
    const result = { type: 'tool_result' as const, tool_use_id: `toolu_${r}`, content: `x${r}` }
    const answer = { type: 'text', text: `done ${r}`, citations: null }
    cost += 0.001
    const messages = [
      stamp({ type: 'user', message: { role: 'user', content: prompt }, parent_tool_use_id: null }),
      assistant(`msg_${r}_a`, text), assistant(`msg_${r}_a`, use),
      stamp({ type: 'user', message: { role: 'user', content: [result] }, parent_tool_use_id: null, tool_use_result: `x${r}` }),
      assistant(`msg_${r}_b`, answer),
      stamp({ type: 'result', subtype: 'success', is_error: false, result: `done ${r}`, num_turns: 2, duration_ms: 5, duration_api_ms: 4, total_cost_usd: cost, usage, modelUsage: {}, stop_reason: 'end_turn', terminal_reason: 'completed', permission_denials: [] }),
    ]
    for (const m of messages) writer.append(toLine(m, base, 'claude-sonnet-4-5')!)
    history.push({ role: 'user', content: prompt }, { role: 'assistant', content: [text, use] as any }, { role: 'user', content: [result] }, { role: 'assistant', content: [answer] as any })
  }
  writer.close()
  return history
}
