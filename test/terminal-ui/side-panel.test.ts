import { describe, expect, it } from 'vitest'
import { painter } from '../../mods/terminal-ui/color.js'
import { SidePanel } from '../../mods/terminal-ui/side-question.js'

const paint = painter({ NO_COLOR: '1' })

describe('the /btw panel', () => {
  it('while answering, takes only Esc, which calls the question off; once answered, Space, Enter and Esc dismiss it', async () => {
    const abort = new AbortController()
    const panel = new SidePanel('what   was\nit?', abort)
    expect(panel.lines(paint, 80)).toEqual(['/btw what was it?', expect.stringMatching(/Answering\.\.\. \(esc to cancel\)$/)])
    expect(panel.key('return')).toBe(false)
    expect(panel.key('space')).toBe(false)
    expect(abort.signal.aborted).toBe(false)
    expect(panel.key('escape')).toBe('close')
    expect(abort.signal.aborted).toBe(true)

    const answered = new SidePanel('q', new AbortController())
    await answered.settle('It was **42**.', false, 80, paint)
    expect(answered.lines(paint, 80)).toEqual(['/btw q', '  It was 42.', '  Space, Enter or Esc to dismiss · not added to the conversation'])
    for (const key of ['space', 'return', 'escape']) expect(answered.key(key)).toBe('close')
    expect(answered.key('x')).toBe(false)
  })

  it('a long answer shows twelve lines at a time and scrolls with Up and Down; no answer says so', async () => {
    const panel = new SidePanel('list them', new AbortController())
    await panel.settle(Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n\n'), false, 80, paint)
    expect(panel.lines(paint, 80).slice(1, 3)).toEqual(['  line 1', '  '])
    expect(panel.lines(paint, 80).at(-1)).toMatch(/lines 1-12 of 39, up\/down to scroll$/)
    expect(panel.key('down')).toBe(true)
    expect(panel.lines(paint, 80)[1]).toBe('  ')
    for (let i = 0; i < 50; i++) panel.key('down')
    expect(panel.lines(paint, 80).at(-2)).toBe('  line 20')
    const none = new SidePanel('q', new AbortController())
    await none.settle(null, false, 80, paint)
    expect(none.lines(paint, 80)[1]).toBe('  (No answer came back.)')
  })
})
