import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createSdkMcpServer, tool } from '../../index.js'
import type { QueryOptions } from '../../runtime/options.js'
import type { SDKSystemInit } from '../../core/loop/messages.js'
import { SYSTEM_PROMPT_DYNAMIC_BOUNDARY } from '../../core/loop/prompt.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { sandbox, type Sandbox } from '../permissions/helpers.js'
import { systemText } from '../helpers/system-text.js'
import { conversation } from './conversation.js'

// query()'s options from the Agent SDK's set, each through a real session and the fake server.

let box: Sandbox
beforeAll(async () => { box = await sandbox() })
afterAll(() => box.remove())

const echo = (id: string, text: string) => ({ reply: [{ tool_use: { id, name: 'Echo', input: { text } } }] })
const initOf = (messages: { type: string }[]) => messages.find((m) => m.type === 'system' && (m as { subtype?: string }).subtype === 'init') as SDKSystemInit
const toolNames = (body: any) => (body.tools as { name: string }[]).map((t) => t.name)
const quiet = () => {}
const base = (): QueryOptions => ({ cwd: box.project, env: { MODLOOP_HOME: box.modloopHome }, log: quiet })

describe('the tool set', () => {
  it('tools: a list offers only those built-in tools; MCP tools stay', async () => {
    const calc = createSdkMcpServer({ name: 'calc', tools: [tool('add', 'adds', { a: z.number() }, async () => ({ content: [{ type: 'text', text: '1' }] }))] })
    const r = await runScript([{ reply: 'ok' }], 'hi', { ...base(), mods: ['read', 'write', 'bash', 'agent', 'mcp'], tools: ['Read'], mcpServers: { calc } })
    expect(initOf(r.messages).tools).toEqual(['Read', 'mcp__calc__add'])
    expect(toolNames(r.requests[0]!.body)).toEqual(['Read', 'mcp__calc__add'])
  })

  it('tools: [] offers none; the preset offers the default set', async () => {
    const none = await runScript([{ reply: 'ok' }], 'hi', { ...base(), tools: [] })
    expect(initOf(none.messages).tools).toEqual([])
    const all = await runScript([{ reply: 'ok' }], 'hi', { ...base(), tools: { type: 'preset', preset: 'claude_code' } })
    expect(initOf(all.messages).tools).toEqual(['Echo', 'Wait', 'Touch', 'Boom'])
  })

  it('toolConfig.askUserQuestion.previewFormat html: AskUserQuestion asks for previews as HTML fragments', async () => {
    const ask = (toolConfig?: QueryOptions['toolConfig']) => runScript([{ reply: 'ok' }], 'hi', {
      ...base(), mods: ['ask-user'], canUseTool: async () => ({ behavior: 'deny', message: 'no' }), ...(toolConfig ? { toolConfig } : {}),
    })
    const askTool = (r: Awaited<ReturnType<typeof ask>>) => ((r.requests[0]!.body as any).tools as { name: string; description: string; input_schema: any }[]).find((t) => t.name === 'AskUserQuestion')!
    const html = askTool(await ask({ askUserQuestion: { previewFormat: 'html' } }))
    expect(html.description).toContain('self-contained HTML fragment')
    expect(JSON.stringify(html.input_schema)).toContain('as a self-contained HTML fragment')
    expect(JSON.stringify(askTool(await ask()).input_schema)).not.toContain('HTML')
  })

  it('toolAliases: a call by the alias runs the tool it names', async () => {
    const r = await runScript([{ reply: [{ tool_use: { id: 'toolu_1', name: 'Say', input: { text: 'aliased' } } }] }, { reply: 'done' }], 'go', { ...base(), toolAliases: { Say: 'Echo' } })
    expect((r.requests[1]!.body as any).messages.at(-1).content[0]).toMatchObject({ tool_use_id: 'toolu_1', content: 'aliased' })
  })
})

describe('agents and agent', () => {
  const agents: QueryOptions['agents'] = {
    reviewer: { description: 'Reviews code', prompt: 'You review code and change nothing.', tools: ['Echo'], model: 'haiku', memory: 'user' },
  }

  it('agents become agent types; agent runs the main conversation as one: its prompt, tools and model', async () => {
    const logged: string[] = []
    const r = await runScript([echo('toolu_1', 'hi'), { reply: 'reviewed' }], 'review', {
      ...base(), mods: [toolsMod(), 'agent'], agents, agent: 'reviewer', log: (l) => void logged.push(l),
    })
    const body = r.requests[0]!.body as any
    expect(systemText(body)).toBe('You review code and change nothing.')
    expect(toolNames(body)).toEqual(['Echo'])
    expect(body.model).toMatch(/haiku/)
    expect(initOf(r.messages).agents).toContain('reviewer')
    expect(r.result.result).toBe('reviewed')
    expect(logged.join('\n')).toContain('"reviewer": memory is not honoured by modloop')
  })

  it('a tool outside the agent\'s list is refused in the main conversation; an unknown agent is reported', async () => {
    const r = await runScript([{ reply: [{ tool_use: { id: 'toolu_t', name: 'Touch', input: { label: 'x' } } }] }, { reply: 'ok' }], 'go', {
      ...base(), mods: [toolsMod(), 'agent'], agents, agent: 'reviewer',
    })
    expect((r.requests[1]!.body as any).messages.at(-1).content[0]).toMatchObject({ is_error: true, content: expect.stringContaining('not among the tools of the reviewer agent') })
    const logged: string[] = []
    await runScript([{ reply: 'ok' }], 'go', { ...base(), mods: [toolsMod(), 'agent'], agent: 'nobody', log: (l) => void logged.push(l) })
    expect(logged.join('\n')).toMatch(/the agent option names "nobody", which is no agent type/)
  })
})

describe('systemPrompt in every form', () => {
  it('a list (the boundary marker left out), a custom object, and a preset with append', async () => {
    const list = await runScript([{ reply: 'ok' }], 'hi', { ...base(), systemPrompt: ['Static part.', SYSTEM_PROMPT_DYNAMIC_BOUNDARY, 'Session part.'] })
    expect(systemText(list.requests[0]!.body as any)).toBe('Static part.\n\nSession part.')
    const custom = await runScript([{ reply: 'ok' }], 'hi', { ...base(), systemPrompt: { type: 'custom', prompt: 'Only this.', snapshot: true } })
    expect(systemText(custom.requests[0]!.body as any)).toBe('Only this.')
    const preset = await runScript([{ reply: 'ok' }], 'hi', { ...base(), systemPrompt: { type: 'preset', preset: 'claude_code', append: 'Be brief.' } })
    expect(systemText(preset.requests[0]!.body as any)).toMatch(/coding agent[\s\S]*Be brief\.$/)
  })
})

describe('requests, logs and approvers', () => {
  it('betas go out as the anthropic-beta header; stderr hears the warnings', async () => {
    const heard: string[] = []
    const r = await runScript([{ reply: 'ok' }], 'hi', {
      ...base(), log: undefined, betas: ['context-1m-2025-08-07'], stderr: (d) => void heard.push(d), sandbox: { enabled: true },
      hooks: { Stop: [{ hooks: [async () => ({})] }] },
      ...({ notAnOption: true } as object),
    })
    expect((r.requests[0] as unknown as { headers: Record<string, string> }).headers['anthropic-beta']).toBe('context-1m-2025-08-07')
    const text = heard.join('')
    expect(text).toContain('unknown option "notAnOption"')
    expect(text).toContain('option "sandbox" is accepted but NOT enforced')
    // No shell-hooks mod in this session: the callbacks would never run.
    expect(text).toMatch(/option "hooks" is set, but no loaded mod reads it/)
  })

  it('taskBudget goes out on each request of a model that takes one, with its beta; none to a model that takes none; a total that is no whole number is named', async () => {
    const budgeted = (model: string, taskBudget: QueryOptions['taskBudget'], heard: string[] = []) => runScript([{ reply: 'ok' }], 'hi', {
      ...base(), log: undefined, stderr: (d) => void heard.push(d), model, betas: ['context-1m-2025-08-07'], taskBudget, mods: ['task-budget'],
    })
    const opus = (await budgeted('claude-opus-4-7', { total: 64_000 })).requests[0] as unknown as { body: any; headers: Record<string, string> }
    expect(opus.body.output_config).toMatchObject({ task_budget: { type: 'tokens', total: 64_000 } })
    expect(opus.headers['anthropic-beta']).toBe('context-1m-2025-08-07,task-budgets-2026-03-13')
    const sonnet = (await budgeted('claude-sonnet-4-5', { total: 64_000 })).requests[0] as unknown as { body: any; headers: Record<string, string> }
    expect(sonnet.body.output_config?.task_budget).toBeUndefined()
    expect(sonnet.headers['anthropic-beta']).not.toContain('task-budgets')
    const heard: string[] = []
    const odd = (await budgeted('claude-opus-4-7', { total: 1.5 }, heard)).requests[0] as unknown as { body: any }
    expect(odd.body.output_config?.task_budget).toBeUndefined()
    expect(heard.join('')).toContain('taskBudget.total must be a whole number of tokens from 1, got 1.5; no task budget is sent')
  })

  it('permissionPromptToolName: an ask goes to that MCP tool, whose JSON answer decides', async () => {
    const asked: unknown[] = []
    const approver = createSdkMcpServer({
      name: 'gate',
      tools: [tool('approve', 'Approves', { tool_name: z.string(), input: z.record(z.string(), z.unknown()), tool_use_id: z.string() }, async (args) => {
        asked.push(args)
        return { content: [{ type: 'text', text: JSON.stringify(args.tool_name === 'Touch' ? { behavior: 'allow', updatedInput: { label: 'approved' } } : { behavior: 'deny', message: 'no' }) }] }
      })],
    })
    const log: string[] = []
    const r = await runScript([{ reply: [{ tool_use: { id: 'toolu_t', name: 'Touch', input: { label: 'x' } } }] }, { reply: 'ok' }], 'go', {
      ...base(), mods: [toolsMod(log), ['permissions', { home: box.home, managedDir: false }], 'mcp'], mcpServers: { gate: approver },
      permissionPromptToolName: 'mcp__gate__approve', allowedTools: ['mcp__gate__approve'], settingSources: [],
    })
    expect(asked).toEqual([{ tool_name: 'Touch', input: { label: 'x' }, tool_use_id: 'toolu_t' }])
    expect(log).toEqual(['touch approved'])
    expect(r.result.result).toBe('ok')
  })

  it('permissionPrompts: none denies an ask without calling canUseTool', async () => {
    let called = false
    const r = await runScript([{ reply: [{ tool_use: { id: 'toolu_t', name: 'Touch', input: { label: 'x' } } }] }, { reply: 'ok' }], 'go', {
      ...base(), mods: [toolsMod(), ['permissions', { home: box.home, managedDir: false }]], settingSources: [], permissionPrompts: 'none',
      canUseTool: async () => { called = true; return { behavior: 'allow' } },
    })
    expect(called).toBe(false)
    expect((r.requests[1]!.body as any).messages.at(-1).content[0]).toMatchObject({ is_error: true, content: expect.stringContaining('no one can approve') })
  })
})

describe('hooks and settingSources', () => {
  it('a callback set to onFailure: block that throws blocks the call; one that is fine lets it run', async () => {
    const blocking = await runScript([echo('toolu_1', 'x'), { reply: 'ok' }], 'go', {
      ...base(), mods: [toolsMod(), ['shell-hooks', { home: box.home, managedDir: false }]], settingSources: [],
      hooks: { PreToolUse: [{ matcher: 'Echo', onFailure: 'block', hooks: [async () => { throw new Error('the policy service is down') }] }] },
    })
    const result = (blocking.requests[1]!.body as any).messages.at(-1).content[0]
    expect(result).toMatchObject({ tool_use_id: 'toolu_1', is_error: true })
    expect(result.content).toContain('the policy service is down')
    const open = await runScript([echo('toolu_1', 'x'), { reply: 'ok' }], 'go', {
      ...base(), mods: [toolsMod(), ['shell-hooks', { home: box.home, managedDir: false }]], settingSources: [],
      hooks: { PreToolUse: [{ matcher: 'Echo', hooks: [async () => { throw new Error('flaky') }] }] },
    })
    expect((open.requests[1]!.body as any).messages.at(-1).content[0]).toMatchObject({ tool_use_id: 'toolu_1', content: 'x' })
  })

  it('a PreToolUse callback that does not answer within its timeout blocks the call; a UserPromptSubmit one blocks the prompt', async () => {
    const never = () => new Promise<never>(() => {})
    const pre = await runScript([echo('toolu_1', 'x'), { reply: 'ok' }], 'go', {
      ...base(), mods: [toolsMod(), ['shell-hooks', { home: box.home, managedDir: false }]], settingSources: [],
      hooks: { PreToolUse: [{ matcher: 'Echo', timeout: 0.2, hooks: [never] }] },
    })
    const result = (pre.requests[1]!.body as any).messages.at(-1).content[0]
    expect(result).toMatchObject({ tool_use_id: 'toolu_1', is_error: true })
    expect(result.content).toMatch(/timed out/)
    const prompt = await runScript([{ reply: 'never asked' }], 'go', {
      ...base(), mods: [toolsMod(), ['shell-hooks', { home: box.home, managedDir: false }]], settingSources: [],
      hooks: { UserPromptSubmit: [{ timeout: 0.2, hooks: [never] }] },
    })
    expect(prompt.requests).toHaveLength(0)
  })

  it('settingSources picks which settings files are read: project rules apply only with project', async () => {
    const project = join(box.root, 'sources-project')
    await mkdir(join(project, '.claude'), { recursive: true })
    await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Echo'] } }))
    const opts = (settingSources: QueryOptions['settingSources']): QueryOptions => ({
      ...base(), cwd: project, settingSources, trustWorkspace: true, allowedTools: ['Echo'], mods: [toolsMod(), ['permissions', { home: box.home, managedDir: false }]],
    })
    const without = await runScript([echo('toolu_1', 'x'), { reply: 'ok' }], 'go', opts([]))
    expect((without.requests[1]!.body as any).messages.at(-1).content[0]).toMatchObject({ content: 'x' })
    const withProject = await runScript([{ reply: 'ok' }], 'go', opts(['project']))
    expect(toolNames(withProject.requests[0]!.body)).not.toContain('Echo')
  })
})

describe('the Query methods the SDK adds', () => {
  it('initializationResult, supportedAgents, accountInfo, setMaxThinkingTokens and streamInput', async () => {
    const c = await conversation([{ reply: 'one' }, { reply: 'two' }], { ...base(), mods: [toolsMod(), 'agent'], model: 'claude-sonnet-4-5', env: { ...base().env, ANTHROPIC_API_KEY: 't' } })
    try {
      await c.say('first')
      const init = await c.q.initializationResult()
      expect(init.commands.map((x) => x.name)).toContain('reload')
      expect(init.models.map((m) => m.value)).toContain('default')
      expect(init.agents.map((a) => a.name)).toContain('general-purpose')
      expect(await c.q.supportedAgents()).toEqual(init.agents)
      expect(await c.q.accountInfo()).toMatchObject({ apiKeySource: 'ANTHROPIC_API_KEY' })
      await c.q.setMaxThinkingTokens(0)
      const streamed = c.q.streamInput((async function* () {
        yield { type: 'user' as const, message: { role: 'user' as const, content: 'second' }, parent_tool_use_id: null }
      })())
      await streamed
      while (c.seen.filter((m) => m.type === 'result').length < 2) await new Promise((r) => setTimeout(r, 5))
      expect((c.server.requests[1]!.body as any).thinking).toEqual({ type: 'disabled' })
      expect(JSON.stringify((c.server.requests[1]!.body as any).messages)).toContain('second')
      await expect(c.q.stopTask('task_1')).rejects.toThrow(/no running task task_1/)
    } finally {
      await c.end()
    }
  })

  it('mcpServerStatus() says why a server failed', async () => {
    const c = await conversation([{ reply: 'one' }], { ...base(), mods: [toolsMod(), 'mcp'], mcpServers: { gone: { type: 'stdio', command: join(box.project, 'no-such-server') } } })
    try {
      await c.say('first')
      expect(await c.q.mcpServerStatus()).toEqual([{ name: 'gone', status: 'failed', source: 'dynamic', error: expect.stringContaining('not found') }])
    } finally {
      await c.end()
    }
  })

  it('setMcpServers adds a server while the session runs; toggleMcpServer switches it off and on; reconnectMcpServer', async () => {
    const c = await conversation([{ reply: 'one' }], { ...base(), mods: [toolsMod(), 'mcp'] })
    try {
      await c.say('first')
      const calc = createSdkMcpServer({ name: 'calc', tools: [tool('add', 'adds', { a: z.number() }, async () => ({ content: [{ type: 'text', text: '1' }] }))] })
      expect(await c.q.setMcpServers({ calc, broken: { type: 'http', url: 'not a url' } })).toEqual({
        added: ['calc'], removed: [], errors: { broken: expect.stringContaining('url') },
      })
      // A connected server carries what it said of itself and its tools, by its own names, as in Claude Code.
      const connected = { name: 'calc', status: 'connected', source: 'sdk', serverInfo: { name: 'calc', version: '1.0.0' }, tools: [{ name: 'add', annotations: {} }] }
      expect(await c.q.mcpServerStatus()).toContainEqual(connected)
      await c.q.toggleMcpServer('calc', false)
      expect(await c.q.mcpServerStatus()).toContainEqual({ name: 'calc', status: 'disabled', source: 'sdk' })
      await c.q.toggleMcpServer('calc', true)
      await c.q.reconnectMcpServer('calc')
      expect(await c.q.mcpServerStatus()).toContainEqual(connected)
      await expect(c.q.reconnectMcpServer('nope')).rejects.toThrow(/no MCP server is named "nope"/)
      expect(await c.q.setMcpServers({})).toEqual({ added: [], removed: ['calc'], errors: {} })
    } finally {
      await c.end()
    }
  })
})
