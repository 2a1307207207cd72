import { describe, expect, it } from 'vitest'
import { hasTmux, project, send, tmuxSuite } from './suite.js'

const suite = tmuxSuite(import.meta.filename)
const server = () => suite.state.server!
const toolResult = (i: number) => ((server().requests[i]!.body.messages as { content: unknown }[]).at(-1)!.content as { type: string; content: unknown; is_error?: boolean }[]).find((b) => b.type === 'tool_result')!
const option = (label: string) => ({ label, description: `about ${label}` })
const questions = [
  { question: 'Which library?', header: 'Library', options: [option('dayjs'), option('luxon')], multiSelect: false },
  { question: 'Which features?', header: 'Features', options: [option('A'), option('B'), option('C')], multiSelect: true },
]

describe.runIf(hasTmux)('AskUserQuestion in the interactive terminal (tmux, 80×24)', () => {
  it('asks each question in turn: "Other" takes typed text, Space or a digit checks options of a multi-select one; the model reads the answers', async () => {
    const where = await project()
    const p = await suite.open({ steps: [{ reply: [{ tool_use: { name: 'AskUserQuestion', input: { questions } } }] }, { reply: 'noted' }] }, where)
    await send(p, 'ask me')
    const first = await p.waitFor('Library: Which library?')
    expect(first).toContain('1. dayjs — about dayjs')
    expect(first).toContain('3. Other')
    await p.keys('3')
    await p.waitFor('Enter to send · Esc to go back')
    await send(p, 'use Temporal')
    await p.waitFor('Features: Which features?')
    // Space checks the highlighted option (A), a digit its own (C).
    await p.keys('Space', '3')
    await p.waitFor('[x] C')
    await p.keys('Enter')
    await p.waitFor('noted')
    expect(toolResult(1).content).toBe('The user answered: "Which library?"="use Temporal", "Which features?"="A, C". Read the answers carefully - they may request clarification, changes, or that you not proceed - and follow what they actually say.')
  })
})
