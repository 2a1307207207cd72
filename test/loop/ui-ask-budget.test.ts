import { describe, expect, it } from 'vitest'
import { createTestHost, defineMod, type TestHost } from '../../testing.js'

// The asking handlers' budget. No test reads a clock: a wait "longer than the budget" is one that
// lasts until a handler on the same budget, started after the ask, has timed out (see `outlast`).
const BUDGET_MS = 30

/** A tool.call handler on the asker's budget that never settles: its timeout is the yardstick. */
const witness = defineMod({
  name: 'witness',
  register(on) {
    on('tool.call', { tool: 'Witness' }, () => new Promise(() => {}), { budgetMs: BUDGET_MS })
  },
})

/** Resolves once the witness, started now, has run out of a budget as long as the asker's. */
const outlast = (t: TestHost) => t.host.bus.emit('tool.call', { tool: 'Witness', tool_use_id: 'toolu_witness' }, () => ({ result: 'unreached' }))

/** A mod whose Deploy tool asks the person first, in a tool.call handler on a short budget. */
function deployer(answers: string[]) {
  return defineMod({
    name: 'deployer',
    register(on) {
      on('session.start', async ($, e, next) => {
        await $.tool.register({ name: 'Deploy', description: 'Deploys', inputSchema: { type: 'object' } })
        return next(e)
      })
      on('tool.call', { tool: 'mcp__deployer__Deploy' }, async ($) => {
        const answer = await $.ui.ask('Deploy to production?', ['deploy', 'hold']).catch((err: Error) => err.message)
        answers.push(answer)
        return answer === 'deploy' ? { result: 'deployed' } : { deny: `not deployed: ${answer}` }
      }, { budgetMs: BUDGET_MS })
    },
  })
}

const deployScript = [{ reply: [{ tool_use: { name: 'mcp__deployer__Deploy', input: {} } }] }, { reply: 'done' }]

/** The text of the tool result the model was sent back. */
function toolResultText(t: TestHost): string {
  const sent = JSON.stringify(t.model.requests.at(-1)?.messages ?? [])
  return /deployed|not deployed[^"]*/.exec(sent)?.[0] ?? sent
}

describe('$.ui.ask and the asking handler\'s budget', () => {
  it('a tool.call handler on a short budget waits on a slow person without timing out, and gets the answer', async () => {
    const answers: string[] = []
    let t!: TestHost
    // $.ui.ask is a tool.call of AskUserQuestion: this mod answers those, slowly.
    const person = defineMod({
      name: 'slow-person',
      register(on) {
        on('tool.call', { tool: 'AskUserQuestion' }, async (_$, e) => {
          await outlast(t)
          const [q] = e.questions as { question: string; options: { label: string }[] }[]
          return { result: { answers: { [q!.question]: q!.options[0]!.label } } }
        })
      },
    })
    t = await createTestHost({ mods: [deployer(answers), witness, person], script: deployScript })
    const { result } = await t.run('ship it')
    expect(answers).toEqual(['deploy'])
    expect(toolResultText(t)).toBe('deployed')
    expect(result.result).toBe('done')
    // Only the yardstick ran out of time; the asker, waiting longer than its budget, did not.
    expect(t.host.failures.map((f) => [f.mod, f.event, f.kind])).toEqual([['witness', 'tool.call', 'timeout']])
    await t.close()
  })

  it('the same wait spent in the handler\'s own code (not an ask) times it out: the budget is enforced', async () => {
    let t!: TestHost
    const impatient = defineMod({
      name: 'impatient',
      register(on) {
        on('prompt.submit', async (_$, e, next) => {
          await outlast(t)
          return next(e)
        }, { budgetMs: BUDGET_MS })
      },
    })
    t = await createTestHost({ mods: [impatient, witness], script: [{ reply: 'hi' }] })
    const { result } = await t.run('hello')
    expect(result.result).toBe('hi')
    expect(t.host.failures.map((f) => [f.mod, f.event, f.kind, f.outcome])).toContainEqual(['impatient', 'prompt.submit', 'timeout', 'skipped'])
    await t.close()
  })

  it('headless, with the terminal-ui mod loaded but no terminal, $.ui.ask rejects: no one can answer', async () => {
    const answers: string[] = []
    const t = await createTestHost({ mods: ['terminal-ui', deployer(answers)], script: deployScript })
    const { result } = await t.run('ship it')
    expect(answers).toEqual([expect.stringMatching(/^\$\.ui\.ask: no one can answer/)])
    expect(toolResultText(t)).toMatch(/^not deployed: \$\.ui\.ask: no one can answer/)
    expect(result.result).toBe('done')
    expect(t.host.failures).toEqual([])
    await t.close()
  })
})
