import { describe, expect, it } from 'vitest'
import { Screen } from '../../mods/terminal-ui/screen.js'

describe('the live region', () => {
  it('never draws more rows than the terminal has, so a redraw can erase all it drew (a long paste in the prompt)', () => {
    const frames: string[] = []
    const screen = new Screen({ write: (t: string) => frames.push(t), columns: 40, rows: 10 })
    const lines = [...Array.from({ length: 30 }, (_, i) => `pasted line ${i}`), '────', 'status']
    screen.setLive(lines, { row: 29, col: 5 })
    screen.setLive(lines, { row: 29, col: 6 })
    const last = frames.at(-1)!
    // The redraw goes up as far as the cursor was left, and that is inside the screen.
    const up = Number(/^\u001b\[(\d+)A/.exec(last)?.[1] ?? 0)
    expect(up).toBeLessThan(10)
    const drawn = last.replace(/^(\u001b\[\d+A)?\r\u001b\[J/, '').replace(/\u001b\[[\d;?]*[A-Za-z]/g, '').split('\n')
    expect(drawn).toHaveLength(10)
    // The rows kept are those around the caret: the caret's line and what is below it.
    expect(drawn.at(-1)).toContain('status')
    expect(drawn).toContain('pasted line 29')
    expect(last).toMatch(/\u001b\[2A\r\u001b\[6C/)
  })

  it('a caret near the top of a tall region keeps the caret row on screen', () => {
    const frames: string[] = []
    const screen = new Screen({ write: (t: string) => frames.push(t), columns: 40, rows: 5 })
    screen.setLive(Array.from({ length: 12 }, (_, i) => `row ${i}`), { row: 1, col: 2 })
    const drawn = frames.at(-1)!.replace(/\u001b\[[\d;?]*[A-Za-z]/g, '').replace(/\r/g, '').split('\n')
    expect(drawn).toEqual(['row 1', 'row 2', 'row 3', 'row 4', 'row 5'])
  })

  it('after the terminal narrowed, a redraw goes up over the rows its wider rows were rewrapped into', () => {
    const frames: string[] = []
    const out = { write: (t: string) => frames.push(t), columns: 80, rows: 24 }
    const screen = new Screen(out)
    // A streaming paragraph's tail, the prompt between two full-width rules, the status line.
    screen.setLive(['word2_0 word2_1 w', '─'.repeat(79), '› hi', '─'.repeat(79), 'status'], { row: 2, col: 4 })
    out.columns = 50
    screen.setLive(['word2_0 word2_1 word2_2', '─'.repeat(49), '› hi', '─'.repeat(49), 'status'], { row: 2, col: 4 })
    // The tail takes one row and the 79-column rule two at 50 columns: three up, not two.
    expect(frames.at(-1)).toMatch(/^\u001b\[3A\r\u001b\[J/)
    // Drawn at 50 columns, the next redraw at the same width counts rows as drawn.
    screen.setLive(['x', '─'.repeat(49), '› hi', '─'.repeat(49), 'status'], { row: 2, col: 4 })
    expect(frames.at(-1)).toMatch(/^\u001b\[2A\r\u001b\[J/)
  })
})
