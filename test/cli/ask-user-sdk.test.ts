import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runStreaming } from '../faults/stream-session.js'

// AskUserQuestion through the Agent SDK's transport (`--permission-prompt-tool stdio`): the built
// CLI as a child process, the question asked as a can_use_tool request, the answers given back as
// the allow's updatedInput, as the Agent SDK's canUseTool gives them.

let dir: string
beforeAll(async () => { dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-ask-user-'))) })
afterAll(() => rm(dir, { recursive: true, force: true }))

const questions = [
  { question: 'Which library?', header: 'Library', options: [{ label: 'dayjs', description: 'small' }, { label: 'luxon', description: 'full' }], multiSelect: false },
  { question: 'Which features?', header: 'Features', options: [{ label: 'A', description: 'a' }, { label: 'B', description: 'b' }], multiSelect: true },
]
const script = [{ reply: [{ tool_use: { id: 'toolu_ask', name: 'AskUserQuestion', input: { questions } } }] }, { reply: 'noted' }]
let projects = 0
/** A project whose .claude/settings.json has these hooks. */
async function project(hooks: Record<string, unknown>): Promise<string> {
  const cwd = join(dir, `project-${++projects}`)
  await mkdir(join(cwd, '.claude'), { recursive: true })
  await writeFile(join(cwd, '.claude', 'settings.json'), JSON.stringify({ hooks }))
  return cwd
}
const toolsOf = (request: any) => (request.body.tools as { name: string }[]).map((t) => t.name)
const resultOf = (request: any) => request.body.messages.at(-1).content[0]

describe('AskUserQuestion over the SDK transport', () => {
  it("is asked as a can_use_tool request needing the user, even in bypassPermissions; the allow's answers are what the model reads", async () => {
    const run = await runStreaming(dir, {
      script, inputs: ['ask me'], args: ['--permission-prompt-tool', 'stdio', '--permission-mode', 'bypassPermissions'],
      canUseTool: (r) => ({ behavior: 'allow', updatedInput: { ...r.input, answers: { 'Which library?': 'dayjs', 'Which features?': 'A, B' } } }),
    })
    expect(run.code).toBe(0)
    const ask = run.messages.find((m) => m.type === 'control_request')!
    expect(ask.request).toMatchObject({ subtype: 'can_use_tool', tool_name: 'AskUserQuestion', input: { questions }, tool_use_id: 'toolu_ask', requires_user_interaction: true })
    expect(toolsOf(run.requests[0])).toContain('AskUserQuestion')
    expect(resultOf(run.requests[1])).toMatchObject({
      type: 'tool_result', tool_use_id: 'toolu_ask',
      content: 'Your questions have been answered: "Which library?"="dayjs", "Which features?"="A, B". You can now continue with these answers in mind.',
    })
    const shown = run.messages.find((m) => m.type === 'user' && m.tool_use_result)!
    expect(shown.tool_use_result).toEqual({ questions, answers: { 'Which library?': 'dayjs', 'Which features?': 'A, B' } })
  })

  it("a deny's message is the error the model reads", async () => {
    const denied = await runStreaming(dir, {
      script, inputs: ['ask me'], args: ['--permission-prompt-tool', 'stdio'],
      canUseTool: () => ({ behavior: 'deny', message: 'Not now' }),
    })
    expect(resultOf(denied.requests[1])).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_ask', content: 'Not now', is_error: true })
  })

  it('in dontAsk nobody is asked: the call is denied', async () => {
    const dontAsk = await runStreaming(dir, { script, inputs: ['ask me'], args: ['--permission-prompt-tool', 'stdio', '--permission-mode', 'dontAsk'] })
    expect(dontAsk.messages.some((m) => m.type === 'control_request')).toBe(false)
    expect(resultOf(dontAsk.requests[1])).toMatchObject({ is_error: true, content: expect.stringContaining('dontAsk') })
  })

  it("a PreToolUse hook's allow does not answer the questions: they still go to canUseTool", async () => {
    const cwd = await project({ PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } })}'` }] }] })
    const run = await runStreaming(cwd, {
      script, inputs: ['ask me'], args: ['--permission-prompt-tool', 'stdio'],
      canUseTool: (r) => ({ behavior: 'allow', updatedInput: { ...r.input, answers: { 'Which library?': 'luxon' } } }),
    })
    expect(run.messages.filter((m) => m.type === 'control_request')).toHaveLength(1)
    expect(resultOf(run.requests[1]).content).toContain('"Which library?"="luxon"')
  })

  it('a PermissionRequest hook that allows with the answers answers for the user', async () => {
    const answered = { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: { questions, answers: { 'Which features?': 'B' } } } } }
    const cwd = await project({ PermissionRequest: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: `echo '${JSON.stringify(answered)}'` }] }] })
    const run = await runStreaming(cwd, { script, inputs: ['ask me'], args: ['--permission-prompt-tool', 'stdio'] })
    expect(run.messages.some((m) => m.type === 'control_request')).toBe(false)
    expect(resultOf(run.requests[1]).content).toBe('Your questions have been answered: "Which features?"="B". You can now continue with these answers in mind.')
  })

  it('is not offered where nobody answers asks (no permission prompt route)', async () => {
    const run = await runStreaming(dir, { script: [{ reply: 'hi' }], inputs: ['hello'] })
    expect(toolsOf(run.requests[0])).not.toContain('AskUserQuestion')
    expect(run.messages.find((m) => m.type === 'system' && m.subtype === 'init')!.tools).not.toContain('AskUserQuestion')
  })

  it('CLAUDE_CODE_QUESTION_PREVIEW_FORMAT=html (the SDK\'s toolConfig.askUserQuestion.previewFormat) asks for previews as HTML fragments; a value it cannot take is named and Markdown stands', async () => {
    const ask = (env: Record<string, string>) => runStreaming(dir, { script: [{ reply: 'hi' }], inputs: ['hello'], args: ['--permission-prompt-tool', 'stdio'], env })
    const tool = (run: { requests: any[] }) => (run.requests[0].body.tools as { name: string; description: string; input_schema: any }[]).find((t) => t.name === 'AskUserQuestion')!
    const preview = (t: { input_schema: any }) => t.input_schema.properties.questions.items.properties.options.items.properties.preview.description as string
    const html = await ask({ CLAUDE_CODE_QUESTION_PREVIEW_FORMAT: 'html' })
    expect(tool(html).description).toContain("An option's preview, when you give one, is a self-contained HTML fragment")
    expect(preview(tool(html))).toContain('as a self-contained HTML fragment')
    const odd = await ask({ CLAUDE_CODE_QUESTION_PREVIEW_FORMAT: 'rtf' })
    expect(tool(odd).description).not.toContain('HTML')
    expect(preview(tool(odd))).not.toContain('HTML')
    expect(odd.err).toContain('CLAUDE_CODE_QUESTION_PREVIEW_FORMAT must be "markdown" or "html", got "rtf"; previews stay Markdown')
  })
})
