import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hasTmux, project, send, tmuxSuite } from './suite.js'

const suite = tmuxSuite(import.meta.filename)
const server = () => suite.state.server!
const toolResult = (i: number) => ((server().requests[i]!.body.messages as { content: unknown }[]).at(-1)!.content as { type: string; content: unknown; is_error?: boolean }[]).find((b) => b.type === 'tool_result')!
const exit = { tool_use: { name: 'ExitPlanMode', input: { plan: '# Plan\n1. Write c.txt with C' } } }

describe.runIf(hasTmux)('plan mode in the interactive terminal (tmux, 80×24)', () => {
  it('ExitPlanMode prints the plan and asks; "auto-accept edits" leaves plan mode for acceptEdits, shown in the status line', async () => {
    const where = await project()
    const c = join(where.cwd, 'c.txt')
    const p = await suite.open({
      steps: [
        { reply: [exit] },
        { reply: [{ tool_use: { name: 'Write', input: { file_path: c, content: 'C\n' } } }] },
        { reply: 'wrote c' },
      ],
    }, where, { args: ['--permission-mode', 'plan'] })
    await p.waitFor('⏵ plan mode')
    await send(p, 'plan the c file')
    const asked = await p.waitFor('Yes, and auto-accept edits')
    expect(asked).toContain('1. Write c.txt with C')
    expect(asked).toContain('Ready to code?')
    expect(asked).toContain('No, keep planning')
    await p.keys('1')
    await p.waitFor('⏵ accept edits')
    // Accepting edits now: the Write runs without asking.
    await p.waitFor(/✔ Write\(.*c\.txt\) · ok/)
    await p.waitFor('wrote c')
    expect(await readFile(c, 'utf8')).toBe('C\n')
    expect(toolResult(1).content).toContain('User has approved your plan')
  })

  it('"No, keep planning" with what to change: the model reads it and plan mode goes on', async () => {
    const where = await project()
    const p = await suite.open({ steps: [{ reply: [exit] }, { reply: 'revising the plan' }] }, where, { args: ['--permission-mode', 'plan'] })
    await send(p, 'plan the c file')
    await p.waitFor('No, keep planning')
    await p.keys('3')
    await p.waitFor('Enter to send · Esc to go back')
    await send(p, 'add a test step')
    await p.waitFor('revising the plan')
    await p.waitFor('⏵ plan mode')
    expect(toolResult(1)).toMatchObject({ is_error: true, content: 'The user did not approve the plan and wants to keep planning: add a test step' })
    expect(existsSync(join(where.cwd, 'c.txt'))).toBe(false)
  })
})
