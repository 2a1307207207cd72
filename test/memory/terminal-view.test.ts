import { describe, expect, it } from 'vitest'
import type { SDKMessage } from '../../core/loop/messages.js'
import { painter } from '../../mods/terminal-ui/color.js'
import { MessageView } from '../../mods/terminal-ui/message-view.js'
import { Screen } from '../../mods/terminal-ui/screen.js'

const plain = painter({ NO_COLOR: '1' })
const maps = (view: MessageView) => view as unknown as { running: Map<string, unknown>; finished: Map<string, unknown> }

describe('terminal view memory', () => {
  it('keeps no per-call state once a turn has its result, shown calls or not', async () => {
    const view = new MessageView(new Screen({ write: () => {}, columns: 80 }), plain, () => {})
    for (let i = 0; i < 50; i++) {
      const id = `toolu_${i}`
      view.onMessage({ type: 'assistant', parent_tool_use_id: null, message: { content: [{ type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } }], usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } } } as unknown as SDKMessage)
      view.toolOutcome(id, 'ok', 1)
      // A call whose tool_use this view never saw, e.g. one a subagent made.
      view.toolOutcome(`toolu_unseen_${i}`, 'ok', 1)
      view.onMessage({ type: 'user', parent_tool_use_id: null, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'a b c' }] } } as unknown as SDKMessage)
    }
    view.onMessage({ type: 'result', subtype: 'success', is_error: false, result: 'done', total_cost_usd: 0, terminal_reason: 'completed' } as unknown as SDKMessage)
    await view.settled()
    expect(maps(view).running.size).toBe(0)
    expect(maps(view).finished.size).toBe(0)
  })
})
