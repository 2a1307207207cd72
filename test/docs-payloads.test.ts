import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'

// An interface whose member holds an object type must not end at that member's closing brace.
it('docs/events.md gives each payload type whole, nested braces included', () => {
  const docs = readFileSync(new URL('../docs/events.md', import.meta.url), 'utf8')
  expect(docs).toContain("- payload `PromptAttachmentInput`: `{ type: string; text: string; origin: { kind: 'engine' } | { kind: 'hook' | 'plugin'; event: string }; agentId?: string }`")
  for (const line of docs.split('\n').filter((l) => /^- (payload|result|chunks) `\w+`: `\{/.test(l))) {
    const text = line.slice(line.indexOf(': `') + 3, -1)
    expect((text.match(/\{/g) ?? []).length, line).toBe((text.match(/\}/g) ?? []).length)
  }
})
