import { describe, expect, it } from 'vitest'
import { Editor } from '../../mods/terminal-ui/editor.js'
import { MarkdownStream } from '../../mods/terminal-ui/markdown.js'
import { alwaysRule } from '../../mods/permissions/always-rule.js'
import { permissionChooser } from '../../mods/terminal-ui/permission-ask.js'
import { painter } from '../../mods/terminal-ui/color.js'
import { diffLines } from '../../mods/terminal-ui/tool-view.js'

describe('the prompt editor', () => {
  it('edits, walks history from the first line, and keeps the draft', () => {
    const e = new Editor()
    e.setHistory(['one', 'two'])
    e.insert('draft')
    e.up()
    expect(e.text).toBe('two')
    e.up()
    expect(e.text).toBe('one')
    e.down()
    e.down()
    expect(e.text).toBe('draft')
    e.killWord()
    expect(e.text).toBe('')
  })

  it('moves, deletes and goes up and down over an emoji as one character, never leaving half of one', () => {
    const e = new Editor()
    e.insert('a🎉b')
    e.left()
    e.left()
    e.insert('X')
    expect(e.text).toBe('aX🎉b')
    e.end()
    e.backspace()
    e.backspace()
    expect(e.text).toBe('aX')
    e.set('👨‍👩‍👧 é')
    e.home()
    e.deleteForward()
    expect(e.text).toBe(' é')
    e.end()
    e.backspace()
    expect(e.text).toBe(' ')
    // Up from column 3 of the second line lands inside the emoji of the first: it stops before it.
    e.set('ab🎉\ncde')
    e.up()
    expect(e.caret).toBe(2)
    e.insert('X')
    expect(e.text).toBe('abX🎉\ncde')
  })

  it('moves between lines of multi-line text before it reaches the history', () => {
    const e = new Editor()
    e.setHistory(['old'])
    e.insert('ab\ncd')
    e.up()
    expect(e.caret).toBe(2)
    e.up()
    expect(e.text).toBe('old')
  })

  it('wraps rows at the width and places the caret', () => {
    const e = new Editor()
    e.insert('x'.repeat(25))
    const v = e.view('› ', 20)
    expect(v.rows.length).toBe(2)
    expect(v.rows[1]!.startsWith('  ')).toBe(true)
    expect(v.caret.row).toBe(1)
  })
})

describe('streaming markdown', () => {
  it('completes blocks at blank lines, never inside a code fence', () => {
    const md = new MarkdownStream()
    expect(md.push('para one\n\n```\na\n\nb')).toEqual(['para one\n\n'])
    expect(md.push('\n```\nrest')).toEqual(['```\na\n\nb\n```\n'])
    expect(md.flush()).toBe('rest')
  })
})

describe('permission rules and diffs', () => {
  it('"allow always" saves the exact Bash command, the WebFetch domain, edits as a class', () => {
    expect(alwaysRule('Bash', { command: 'npm test' })).toEqual({ toolName: 'Bash', ruleContent: 'npm test' })
    expect(alwaysRule('WebFetch', { url: 'https://example.com/x' })).toEqual({ toolName: 'WebFetch', ruleContent: 'domain:example.com' })
    expect(alwaysRule('Write', { file_path: '/a' })).toEqual({ toolName: 'Edit' })
  })

  it('"allow always" on a compound command saves one rule per part the check suggests, not the whole line', () => {
    const suggestions = [{ type: 'addRules' as const, behavior: 'allow' as const, destination: 'localSettings' as const, rules: [{ toolName: 'Bash', ruleContent: 'npm test' }, { toolName: 'Bash', ruleContent: 'git push' }] }]
    let saved: unknown
    const chooser = permissionChooser('Bash', { command: 'npm test && git push' }, undefined, (_r, _pick, rules) => { saved = rules }, suggestions)
    expect(chooser.lines(painter({ NO_COLOR: '1' })).join('\n')).toContain('Yes, always: allow Bash(npm test), Bash(git push)')
    chooser.digit(2)
    expect(saved).toEqual([{ toolName: 'Bash', ruleContent: 'npm test' }, { toolName: 'Bash', ruleContent: 'git push' }])
    let whole: unknown
    permissionChooser('Bash', { command: 'make' }, undefined, (_r, _pick, rules) => { whole = rules }).digit(2)
    expect(whole).toEqual([{ toolName: 'Bash', ruleContent: 'make' }])
  })

  it('draws hunks with line numbers, without colour under NO_COLOR', () => {
    const lines = diffLines([{ oldStart: 1, newStart: 1, lines: [' a', '-b', '+c'] }], painter({ NO_COLOR: '1' }))
    expect(lines).toEqual(['     1   a', '     2 - b', '     2 + c'])
  })
})
