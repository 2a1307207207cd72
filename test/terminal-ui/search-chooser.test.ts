import { describe, expect, it } from 'vitest'
import type { Chosen } from '../../mods/terminal-ui/chooser.js'
import { painter } from '../../mods/terminal-ui/color.js'
import { SearchChooser } from '../../mods/terminal-ui/search-chooser.js'

const paint = painter({ NO_COLOR: '1' })
const sessions = [
  { label: 'Fix the login flake', value: 'a', text: 'Fix the login flake\nmain\naaaa1111' },
  { label: 'Release notes', value: 'b', text: 'write the release notes\nrelease/2.0\nbbbb2222' },
  { label: 'Login page styles', value: 'c', text: 'Login page styles\nfeature/css\ncccc3333' },
]
const picker = (search = '', shown = 9) => {
  const answers: Chosen<string | undefined>[] = []
  const c = new SearchChooser(['Resume which session?'], sessions, (a) => answers.push(a), undefined, search, shown)
  return { c, answers, labels: () => c.choices.map((x) => x.label) }
}
const type = (c: SearchChooser<string | undefined>, text: string) => { for (const ch of text) expect(c.searchKey(ch, { name: ch })).toBe(true) }

describe('the session picker\'s search', () => {
  it('opened with a text (--resume <text>), lists only what matches it, every word, in any case, and Enter picks among them', () => {
    const { c, answers, labels } = picker('LOGIN')
    expect(labels()).toEqual(['Fix the login flake', 'Login page styles'])
    expect(c.lines(paint)).toEqual(['Resume which session?', 'Search: LOGIN_', '❯ 1. Fix the login flake', '  2. Login page styles', 'Type to search · ↑↓ to move · Enter to confirm · Esc to cancel'])
    c.move(1)
    expect(c.pick()).toBe(true)
    expect(answers).toEqual([{ value: 'c' }])
    expect(picker('login css').labels()).toEqual(['Login page styles'])
  })

  it('looks in the branch and the id too; Backspace widens it again; digits are search text while searching', () => {
    const { c, labels } = picker('release/')
    expect(labels()).toEqual(['Release notes'])
    for (let i = 0; i < 'release/'.length; i++) expect(c.searchKey(undefined, { name: 'backspace' })).toBe(true)
    expect(labels()).toHaveLength(3)
    type(c, '3333')
    expect(labels()).toEqual(['Login page styles'])
    // The keys that move and pick stay the chooser's.
    for (const name of ['return', 'escape', 'up', 'down', 'tab']) expect(c.searchKey(undefined, { name })).toBe(false)
  })

  it('matching nothing says so, and Enter picks nothing until the search is widened', () => {
    const { c, answers, labels } = picker('nowhere')
    expect(labels()).toEqual([])
    expect(c.lines(paint)).toContain('  No session matches "nowhere"')
    c.move(1)
    expect(c.pick()).toBe(false)
    expect(answers).toEqual([])
  })

  it('opened without one (--resume, /resume), digits pick and / starts the search', () => {
    const { c, labels } = picker('', 2)
    expect(c.searching).toBe(false)
    expect(labels()).toEqual(['Fix the login flake', 'Release notes'])
    expect(c.lines(paint).at(-1)).toBe('↑↓ or 1-9 to choose · / to search · Enter to confirm · Esc to cancel')
    expect(c.searchKey('2', { name: '2' })).toBe(false)
    expect(c.searchKey('/', { name: '/' })).toBe(true)
    type(c, 'styles')
    expect(labels()).toEqual(['Login page styles'])
  })
})
