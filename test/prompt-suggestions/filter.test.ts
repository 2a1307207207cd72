import { describe, expect, it } from 'vitest'
import { suggestionOf } from '../../mods/prompt-suggestions/filter.js'

describe('suggestionOf', () => {
  it('keeps one short instruction in the person\'s voice, trimmed', () => {
    for (const s of ['run the tests', 'what about the tests?', 'I will run the tests', 'yes', 'commit', '`npm test`', 'run the tests. then commit']) expect(suggestionOf(s)).toBe(s)
    expect(suggestionOf('  commit this \n')).toBe('commit this')
    expect(suggestionOf('one two three four five six seven eight nine ten eleven twelve')).toBeDefined()
  })

  it('drops what Claude Code drops', () => {
    for (const s of ['', 'thanks', 'looks good', 'perfect', 'Let me run the tests', "I'll run the tests", 'Here is the fix', 'nothing', 'Silence', '*run the tests*',
      'run the tests.\nThen commit.', 'Run the tests. Then commit.', 'extra', 'one two three four five six seven eight nine ten eleven twelve thirteen']) {
      expect(suggestionOf(s), s).toBeUndefined()
    }
  })
})
