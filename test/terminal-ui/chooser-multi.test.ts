import { describe, expect, it } from 'vitest'
import { Chooser, type Chosen } from '../../mods/terminal-ui/chooser.js'

const multi = () => {
  const answers: Chosen<string>[] = []
  const c = new Chooser(['Which?'], [{ label: 'A', value: 'a' }, { label: 'B', value: 'b' }, { label: 'Other', value: 'other', withText: 'your answer' }], (a) => answers.push(a), 'cancel', true)
  return { c, answers }
}

describe('a multi-select chooser', () => {
  it('checks with Space or a digit, and Enter answers the checked ones in order', () => {
    const { c, answers } = multi()
    c.digit(2)
    c.move(-1)
    c.toggle()
    expect(c.pick()).toBe(true)
    expect(answers).toEqual([{ value: 'a', checked: ['a', 'b'] }])
  })

  it('answers the current choice when none is checked; Other takes text beside the checked ones', () => {
    const first = multi()
    first.c.move(1)
    first.c.pick()
    expect(first.answers).toEqual([{ value: 'b', checked: ['b'] }])
    const other = multi()
    other.c.toggle()
    expect(other.c.digit(3)).toBe(false)
    expect(other.c.typing?.value).toBe('other')
    other.c.typed('mine')
    expect(other.answers).toEqual([{ value: 'other', text: 'mine', checked: ['a'] }])
  })
})
