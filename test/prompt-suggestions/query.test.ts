import { describe, expect, it } from 'vitest'
import { query } from '../../entry.js'
import type { SDKMessage, SDKUserMessage } from '../../core/loop/messages.js'
import suggestions from '../../mods/prompt-suggestions/index.js'

describe('query() with promptSuggestions', () => {
  it('yields a prompt_suggestion after the second turn\'s result, none after the first', async () => {
    let answered: () => void = () => {}
    async function* prompts(): AsyncGenerator<SDKUserMessage> {
      for (const text of ['hello', 'and now?']) {
        yield { type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null }
        await new Promise<void>((resolve) => { answered = resolve })
      }
    }
    const seen: SDKMessage[] = []
    const q = query({ prompt: prompts(), options: { bare: true, mods: [suggestions], persistSession: false, promptSuggestions: true, script: [{ reply: 'one' }, { reply: 'two' }, { reply: 'commit this' }] } })
    for await (const m of q) {
      seen.push(m)
      // The next prompt goes once the guess came (or, after the first turn, at its result).
      if (m.type === 'prompt_suggestion' || (m.type === 'result' && seen.filter((x) => x.type === 'result').length === 1)) answered()
    }
    expect(seen.filter((m) => m.type === 'result' || m.type === 'prompt_suggestion').map((m) => m.type)).toEqual(['result', 'result', 'prompt_suggestion'])
    expect(seen.at(-1)).toMatchObject({ type: 'prompt_suggestion', suggestion: 'commit this' })
  })
})
