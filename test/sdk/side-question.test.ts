import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import commandsMod from '../../mods/commands/index.js'
import transcripts from '../../mods/transcripts/index.js'
import { toolsMod } from '../loop/helpers.js'
import { permissionsWith, sandbox, type Sandbox } from '../permissions/helpers.js'
import { fileOf, readLines, tempCwd } from '../sessions/helpers.js'
import type { Query } from '../../runtime/query.js'
import { conversation } from './conversation.js'

let box: Sandbox
beforeAll(async () => { box = await sandbox() })
afterAll(() => box.remove())

const textOf = (m: any): string => (typeof m.content === 'string' ? m.content : m.content.map((b: any) => b.text ?? '').join(''))

describe('side questions (Query.askSideQuestion, /btw)', () => {
  it('answers over the conversation with the main request\'s tools and system prompt, and leaves no trace in the history or the transcript', async () => {
    const cwd = await tempCwd('modloop-btw-')
    const c = await conversation([
      { reply: 'noted: the code is PURPLE-7' },
      { when: { lastUserText: 'side question' }, reply: 'PURPLE-7' },
      { reply: 'next answer' },
    ], { cwd, mods: [toolsMod(), transcripts] })
    try {
      const first = await c.say('remember the launch code PURPLE-7')
      const answer = await c.q.askSideQuestion('what was the code?')
      expect(answer).toEqual({ response: 'PURPLE-7', synthetic: false })
      const main = c.server.requests[0]!.body as any
      const side = c.server.requests[1]!.body as any
      // The same prefix as the main loop's, so the prompt cache serves it: model, system, tools.
      expect(side.model).toBe(main.model)
      expect(side.system).toEqual(main.system)
      expect(side.tools).toEqual(main.tools)
      expect(side.messages.slice(0, 2).map(textOf)).toEqual(['remember the launch code PURPLE-7', 'noted: the code is PURPLE-7'])
      expect(textOf(side.messages[2])).toMatch(/side question[\s\S]*No tool runs[\s\S]*what was the code\?$/)
      // No result came for it: it is no turn.
      expect(c.seen.filter((m) => m.type === 'result')).toHaveLength(1)
      await c.say('go on')
      const next = c.server.requests[2]!.body as any
      expect(next.messages.map(textOf)).toEqual(['remember the launch code PURPLE-7', 'noted: the code is PURPLE-7', 'go on'])
      const lines = JSON.stringify(readLines(fileOf(cwd, first.session_id)))
      expect(lines).toContain('go on')
      expect(lines).not.toContain('what was the code')
    } finally {
      await c.end()
    }
  })

  it('is answered while a turn runs (the turn waits on a permission ask), and the turn goes on undisturbed', async () => {
    const order: string[] = []
    let q: Query | undefined
    const c = await conversation([
      { reply: [{ tool_use: { name: 'Touch', input: { label: 'x' } } }] },
      { when: { lastUserText: 'side question' }, reply: 'you asked me to touch x' },
      { reply: 'touched' },
    ], {
      cwd: box.project, mods: [toolsMod(), permissionsWith({ home: box.home, trustStore: join(box.root, 'trust.json') })], env: { MODLOOP_HOME: box.modloopHome },
      // The ask holds the turn until the side question was answered.
      canUseTool: async () => {
        order.push('ask')
        const a = await q!.askSideQuestion('what are you doing?')
        order.push(`side: ${a.response}`)
        return { behavior: 'allow' }
      },
    })
    q = c.q
    try {
      const result = await c.say('touch x')
      order.push('result')
      expect(order).toEqual(['ask', 'side: you asked me to touch x', 'result'])
      expect(result).toMatchObject({ subtype: 'success', result: 'touched' })
      // The side request ends before the unanswered call: the API refuses a call without its result.
      const side = c.server.requests[1]!.body as any
      expect(side.messages.map((m: any) => m.role)).toEqual(['user'])
      expect(textOf(side.messages[0])).toMatch(/^touch x[\s\S]*what are you doing\?$/)
      // The turn's next request holds the call and its result, nothing of the side question.
      const after = c.server.requests[2]!.body as any
      expect(JSON.stringify(after.messages)).not.toContain('what are you doing')
    } finally {
      await c.end()
    }
  })

  it('reports a reply that reached for a tool as synthetic, and refuses an empty question', async () => {
    const c = await conversation([
      { reply: 'hello' },
      { reply: [{ tool_use: { name: 'Touch', input: { label: 'x' } } }] },
    ], { mods: [toolsMod()] })
    try {
      expect(await c.q.askSideQuestion('anything?')).toMatchObject({ synthetic: true, response: expect.stringMatching(/nothing has been said/i) })
      await c.say('hi')
      expect(await c.q.askSideQuestion('look at the file?')).toMatchObject({ synthetic: true, response: expect.stringMatching(/tried to use a tool/) })
      await expect(c.q.askSideQuestion('  ')).rejects.toThrow(/question must be a non-empty string/)
      // No request was made before the first prompt: there was nothing to ask about.
      expect(c.server.requests).toHaveLength(2)
    } finally {
      await c.end()
    }
  })

  it('/btw as a prompt answers as a local command whose question and answer stay out of the history and transcript', async () => {
    const cwd = await tempCwd('modloop-btw-cmd-')
    const c = await conversation([
      { reply: 'the port is 8080' },
      { when: { lastUserText: 'side question' }, reply: '8080' },
      { reply: 'ok' },
    ], { cwd, mods: [commandsMod, transcripts] })
    try {
      const first = await c.say('which port?')
      const usage = await c.say('/btw')
      expect(usage).toMatchObject({ subtype: 'success', result: 'Usage: /btw <your question>', local_command: 'btw' })
      const side = await c.say('/btw   remind me of the port')
      expect(side).toMatchObject({ subtype: 'success', result: '8080', local_command: 'btw', is_error: false })
      expect(textOf((c.server.requests[1]!.body as any).messages.at(-1))).toMatch(/remind me of the port$/)
      await c.say('thanks')
      const last = c.server.requests[2]!.body as any
      expect(last.messages.map(textOf)).toEqual(['which port?', 'the port is 8080', 'thanks'])
      const lines = JSON.stringify(readLines(fileOf(cwd, first.session_id)))
      expect(lines).toContain('thanks')
      expect(lines).not.toContain('remind me of the port')
      expect(lines).not.toContain('/btw')
    } finally {
      await c.end()
    }
  })
})
