import { describe, expect, it } from 'vitest'
import askUser from '../../mods/ask-user/index.js'
import { answersText } from '../../mods/ask-user/answers.js'
import { askInput } from '../../mods/ask-user/input.js'
import { openSession } from '../../runtime/open.js'
import { closeSession } from '../../runtime/close.js'
import { ModHost } from '../../core/mod/host.js'
import { createScriptedModel } from '../../testing/model/scripted.js'
import { validateInput } from '../../core/tools/tool.js'
import { tempDir } from './harness.js'

const option = (label: string) => ({ label, description: `about ${label}` })
const library = { question: 'Which library?', header: 'Library', options: [option('dayjs'), option('luxon')], multiSelect: false }
const features = { question: 'Which features?', header: 'Features', options: [option('A'), option('B'), option('C')], multiSelect: true }
const text = (input: Record<string, unknown>) => answersText(askInput().parse({ questions: [library, features], ...input }))

describe('AskUserQuestion input', () => {
  it('takes 1 to 4 questions of 2 to 4 options; multiSelect defaults to false', () => {
    expect(askInput().parse({ questions: [{ ...library, multiSelect: undefined }] }).questions[0]!.multiSelect).toBe(false)
    expect(askInput().safeParse({ questions: [] }).success).toBe(false)
    expect(askInput().safeParse({ questions: [1, 2, 3, 4, 5].map((n) => ({ ...library, question: `Q${n}?` })) }).success).toBe(false)
    expect(askInput().safeParse({ questions: [{ ...library, options: [1, 2, 3, 4, 5].map((n) => option(`o${n}`)) }] }).success).toBe(false)
    expect(askInput().safeParse({ questions: [{ ...library, options: [{ label: 'x' }, { label: 'y' }] }] }).success).toBe(false)
  })

  it('refuses one option with advice to take that path, and repeated questions or labels', () => {
    const tool = { name: 'AskUserQuestion', description: '', input: askInput(), isReadOnly: () => false, call: () => ({ result: null }) }
    const one = validateInput(tool, { questions: [{ ...library, options: [option('dayjs')] }] }, { fromModel: true })
    expect(one).toMatchObject({ ok: false, message: expect.stringContaining('take that path and go on without asking') })
    expect(askInput().safeParse({ questions: [library, library] }).error?.issues[0]?.message).toBe('Question texts must be unique, option labels must be unique within each question')
    expect(askInput().safeParse({ questions: [{ ...library, options: [option('a'), option('a')] }] }).success).toBe(false)
  })
})

describe('AskUserQuestion result text', () => {
  it('says the questions were answered when each answer is a label (several joined with ", " or as a list, for multi-select)', () => {
    expect(text({ answers: { 'Which library?': 'dayjs', 'Which features?': 'A, B' } })).toBe(
      'Your questions have been answered: "Which library?"="dayjs", "Which features?"="A, B". You can now continue with these answers in mind.')
    expect(text({ answers: { 'Which library?': 'dayjs', 'Which features?': ['A', 'C'] } })).toContain('"Which features?"="A,C". You can now continue')
  })

  it('leaves empty answers out, and says so when none is left', () => {
    expect(text({ answers: { 'Which library?': 'luxon', 'Which features?': '' } })).toBe(
      'Your questions have been answered: "Which library?"="luxon". You can now continue with these answers in mind.')
    expect(text({})).toBe('The user did not answer the questions.')
    expect(text({ answers: { 'Which library?': '' } })).toBe('The user did not answer the questions.')
  })

  it('asks the model to read typed answers, several labels on a single-select question, and notes; a preview alone does not', () => {
    const careful = '. Read the answers carefully - they may request clarification, changes, or that you not proceed - and follow what they actually say.'
    expect(text({ answers: { 'Which library?': 'neither, use Temporal' } })).toBe(`The user answered: "Which library?"="neither, use Temporal"${careful}`)
    expect(text({ answers: { 'Which library?': ['dayjs', 'luxon'] } })).toBe(`The user answered: "Which library?"="dayjs,luxon"${careful}`)
    expect(text({ answers: { 'Which library?': 'dayjs' }, annotations: { 'Which library?': { preview: 'P', notes: 'pin it' } } }))
      .toBe(`The user answered: "Which library?"="dayjs" selected preview:\nP notes: pin it${careful}`)
    expect(text({ answers: { 'Which library?': 'dayjs' }, annotations: { 'Which library?': { preview: 'P' } } }))
      .toBe('Your questions have been answered: "Which library?"="dayjs" selected preview:\nP. You can now continue with these answers in mind.')
  })
})

describe('AskUserQuestion is offered', () => {
  async function tools(canUseTool?: () => Promise<{ behavior: 'deny'; message: string }>) {
    const tmp = await tempDir()
    const host = new ModHost({ strict: true })
    await host.add(askUser)
    const session = await openSession({ host, bare: true, cwd: tmp.dir, modelProvider: createScriptedModel([{ reply: 'unused' }]), ...(canUseTool ? { canUseTool } : {}) })
    const names = session.tools.names()
    await closeSession(session)
    await tmp.remove()
    return names
  }

  it('only where someone answers asks', async () => {
    expect(await tools(async () => ({ behavior: 'deny', message: 'no' }))).toContain('AskUserQuestion')
    expect(await tools()).not.toContain('AskUserQuestion')
  })
})
