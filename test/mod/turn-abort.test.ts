import { describe, expect, it } from 'vitest'
import { createTestHost, defineMod } from '../../testing.js'

/** Aborts, at each turn's start, the turn whose id `pick` chooses from those started so far. */
function aborter(said: string[], pick: (ids: string[]) => string) {
  const ids: string[] = []
  return defineMod({
    name: 'aborter',
    register(on) {
      on('turn.start', async ($, e, next) => {
        ids.push(e.turnId)
        if (ids.length === 2) {
          try {
            await $.turn.abort({ turnId: pick(ids) })
            said.push('aborted')
          } catch (err) {
            said.push((err as Error).message.replaceAll(ids[0]!, '<first>').replaceAll(ids[1]!, '<second>'))
          }
        }
        return next(e)
      })
    },
  })
}

describe('$.turn.abort', () => {
  it('rejects, naming both ids, for a turn that is not the running one, and leaves the running turn be', async () => {
    const said: string[] = []
    const t = await createTestHost({ mods: [aborter(said, (ids) => ids[0]!)], script: [{ reply: 'one' }, { reply: 'two' }] })
    await t.run('first')
    const { result } = await t.run('second')
    expect(said).toEqual([expect.stringMatching(/<first>.*<second>|<second>.*<first>/)])
    expect(result.result).toBe('two')
    await t.close()
  })

  it('cancels the running turn it names', async () => {
    const said: string[] = []
    const t = await createTestHost({ mods: [aborter(said, (ids) => ids[1]!)], script: [{ reply: 'one' }, { reply: 'two' }] })
    await t.run('first')
    const { result } = await t.run('second')
    expect(said).toEqual(['aborted'])
    expect(result.subtype).toBe('error_during_execution')
    await t.close()
  })
})

describe('$.turn.abort refused', () => {
  it('rejects (never throws where it is called), so .catch on the call sees the refusal', async () => {
    const said: string[] = []
    const mod = defineMod({
      name: 'late-aborter',
      register(on) {
        on('turn.start', ($, e, next) => {
          let call: Promise<void> | undefined
          try {
            call = $.turn.abort({ turnId: 'a-turn-that-ended' })
          } catch {
            said.push('threw')
          }
          return call!.catch((err: Error) => { said.push(err.message) }).then(() => next(e))
        })
      },
    })
    const t = await createTestHost({ mods: [mod], script: [{ reply: 'one' }] })
    const { result } = await t.run('first')
    expect(said).toEqual([expect.stringContaining('late-aborter: $.turn.abort refused: turn a-turn-that-ended is not running')])
    expect(result.result).toBe('one')
    await t.close()
  })
})
