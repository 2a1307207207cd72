import { describe, expect, it } from 'vitest'
import type { AskOptions } from '../../core/mod/api.js'
import type { CanUseTool } from '../../core/tools/pipeline.js'
import { createTestHost, defineMod } from '../../testing.js'
import { runTasks } from '../tasks/helpers.js'

type Question = { question: string; header: string; options: { label: string }[]; multiSelect: boolean }

/** Asks once as a prompt comes in; keeps the answer, or the rejection's message. */
function asker(said: string[], question: string, options?: AskOptions, own?: () => void) {
  return defineMod({
    name: 'asker',
    register(on) {
      on('prompt.submit', async ($, e, next) => {
        said.push(await $.ui.ask(question, options).catch((err: Error) => `rejected: ${err.message}`))
        return next(e)
      })
      // Its own AskUserQuestion handler: $.ui.ask runs through every hook but the caller's.
      if (own) on('tool.call', { tool: 'AskUserQuestion' }, () => { own(); return { deny: 'the asker answered itself' } })
    },
  })
}

/** A mod that answers AskUserQuestion tool calls: it picks the last option of each question. */
function person(seen: unknown[]) {
  return defineMod({
    name: 'person',
    register(on) {
      on('tool.call', { tool: 'AskUserQuestion' }, (_$, e) => {
        seen.push(e)
        const questions = e.questions as Question[]
        return { result: { questions, answers: Object.fromEntries(questions.map((q) => [q.question, q.options.at(-1)!.label])) } }
      })
    },
  })
}

describe('$.ui.ask is a tool.call of AskUserQuestion', () => {
  it('a mod that answers AskUserQuestion answers it; one choice is padded to two with Yes, the header is the mod name', async () => {
    const said: string[] = []
    const seen: unknown[] = []
    const t = await createTestHost({ mods: [asker(said, 'Deploy now?', ['deploy']), person(seen)], script: [{ reply: 'ok' }] })
    await t.run('hello')
    expect(said).toEqual(['Yes'])
    expect(seen).toEqual([expect.objectContaining({
      tool: 'AskUserQuestion', tool_use_id: expect.stringMatching(/^toolu_/),
      questions: [{ question: 'Deploy now?', header: 'asker', options: ['deploy', 'Yes'].map((label) => ({ label, description: '' })), multiSelect: false }],
    })])
    await t.close()
  })

  it('the asking mod\'s own tool.call handler is not consulted; with no one else to answer, the ask rejects', async () => {
    const said: string[] = []
    let consulted = 0
    const t = await createTestHost({ mods: [asker(said, 'Go on?', ['go', 'stop'], () => consulted++)], script: [{ reply: 'ok' }] })
    const { result } = await t.run('hello')
    expect(result.result).toBe('ok')
    expect(consulted).toBe(0)
    expect(said).toEqual([expect.stringMatching(/^rejected: \$\.ui\.ask: no one can answer/)])
    await t.close()
  })

  it('query() with canUseTool gets the AskUserQuestion ask; a multi-select answer comes back comma-joined, a declined one rejects', async () => {
    const said: string[] = []
    const asks: unknown[] = []
    const answers = [['red', 'blue'], undefined]
    const canUseTool: CanUseTool = async (tool, input, o) => {
      asks.push([tool, o.requiresUserInteraction])
      const picked = answers.shift()
      if (!picked) return { behavior: 'deny', message: 'The user declined to answer the questions.' }
      return { behavior: 'allow', updatedInput: { ...input, answers: { 'Which colours?': picked } } }
    }
    const mods = ['permissions', 'ask-user', asker(said, 'Which colours?', { options: ['red', 'green', 'blue'], header: 'Colours', multiSelect: true })]
    const t = await createTestHost({ mods, script: [{ reply: 'one' }, { reply: 'two' }] })
    await t.run('first', { canUseTool })
    await t.run('second', { canUseTool })
    expect(asks).toEqual([['AskUserQuestion', true], ['AskUserQuestion', true]])
    expect(said).toEqual(['red, blue', 'rejected: $.ui.ask: The user declined to answer the questions.'])
    await t.close()
  })

  it('rejects headless (-p): with the terminal, ask-user and permissions mods loaded but no one to answer asks', async () => {
    const said: string[] = []
    const t = await createTestHost({ mods: ['terminal-ui', 'permissions', 'ask-user', asker(said, 'Go on?', ['go', 'stop'])], script: [{ reply: 'ok' }] })
    const { result } = await t.run('hello')
    expect(result.result).toBe('ok')
    expect(said).toEqual([expect.stringMatching(/^rejected: \$\.ui\.ask: no one can answer/)])
    expect(t.host.failures).toEqual([])
    await t.close()
  })
})

describe('$.ui.ask outside any turn', () => {
  it('asked as the session starts, it answers to the query\'s abortController: the approver sees the abort, the ask rejects, the query ends', async () => {
    const said: string[] = []
    const mod = defineMod({
      name: 'opener',
      register(on) {
        on('session.start', async ($, e, next) => {
          said.push(await $.ui.ask('Set up?', ['yes', 'no']).catch((err: Error) => `rejected: ${err.message}`))
          return next(e)
        })
      },
    })
    const abortController = new AbortController()
    // It waits for the person, who never answers; the abort comes once it is asked.
    const canUseTool: CanUseTool = (_tool, _input, o) => new Promise((resolve) => {
      o.signal.addEventListener('abort', () => resolve({ behavior: 'deny', message: 'aborted' }), { once: true })
      abortController.abort()
    })
    const run = await runTasks([{ reply: 'never sent' }], 'hello', { mods: ['permissions', 'ask-user', mod] as never, canUseTool, abortController })
    expect(said).toEqual([expect.stringMatching(/^rejected: \$\.ui\.ask: /)])
    expect(String(run.error)).toMatch(/abort/i)
  })
})
