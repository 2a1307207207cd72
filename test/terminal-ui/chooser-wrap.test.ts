import { describe, expect, it } from 'vitest'
import { Chooser } from '../../mods/terminal-ui/chooser.js'
import { painter } from '../../mods/terminal-ui/color.js'

const plain = painter({ NO_COLOR: '1' })

describe('a question wider than the terminal', () => {
  it('wraps its title and explanation at word boundaries, keeping indents; nothing is cut', () => {
    const explanation = 'It has hooks in .claude/settings.json; MCP servers in .mcp.json: code that runs on your machine, or calls let run unasked, once the session starts.'
    const c = new Chooser(['Do you trust the files in /tmp/some/rather/long/project/path?', explanation, '    from .claude/settings.json and more words'], [{ label: 'Yes', value: true }], () => {}, false)
    const lines = c.lines(plain, 40).slice(0, -2)
    const words = (s: string) => s.split(/\s+/).filter(Boolean)
    expect(lines.every((l) => l.length <= 40)).toBe(true)
    expect(words(lines.join(' '))).toEqual(expect.arrayContaining(words(explanation)))
    expect(lines.join('\n')).toContain('once the session starts.')
    expect(lines.filter((l) => l.startsWith('    ')).length).toBeGreaterThan(1)
    expect(c.lines(plain)[1]).toBe(explanation)
  })
})
