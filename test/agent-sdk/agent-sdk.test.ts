import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import { createSdkMcpServer, query as sdkQuery, tool, type Options, type SDKMessage as SdkMessage } from '@anthropic-ai/claude-agent-sdk'
import { z } from 'zod'
import { query as modloopQuery, type QueryOptions } from '../../index.js'
import { OPTION_SUPPORT } from '../../runtime/option-names.js'
import { CONTROL_SUBTYPES } from '../../cli/sdk-transport/controls.js'
import { channel } from '../helpers/channel.js'
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js'
import { builtCli } from '../helpers/built-cli.js'

// An application written for the official Agent SDK, run two ways: by the SDK itself, which starts
// modloop's built CLI as its Claude Code executable and talks to it over stdio, and by modloop's
// own query() in process, with the same options object.

const root = fileURLToPath(new URL('../../', import.meta.url))
const EXECUTABLE = builtCli()
type Via = 'agent-sdk' | 'modloop'
const VIAS: Via[] = ['agent-sdk', 'modloop']

/** The controls both Query objects have, as the scenarios use them. */
interface Driven extends AsyncIterable<SdkMessage> {
  interrupt(): Promise<unknown>
  setPermissionMode(mode: 'acceptEdits'): Promise<unknown>
  mcpServerStatus(): Promise<{ name: string; status: string }[]>
  readFile(path: string, options?: { maxBytes?: number }): Promise<{ contents: string; absPath: string; truncated?: boolean } | null>
  seedReadState(path: string, mtime: number): Promise<void>
  reloadOutputStyles(): Promise<{ available_output_styles: string[] }>
  applyFlagSettings(settings: Record<string, unknown>): Promise<void>
  setMcpPermissionModeOverride(serverName: string, mode: 'default' | 'auto' | null): Promise<{ warning?: string }>
}

function run(via: Via, prompt: string | AsyncIterable<unknown>, options: Options): Driven {
  if (via === 'agent-sdk') return sdkQuery({ prompt: prompt as string, options })
  // The official Options object type-checks as modloop's (the test would not compile otherwise).
  const mine: QueryOptions = options
  return modloopQuery({ prompt: prompt as string, options: mine }) as unknown as Driven
}

let dir: string
beforeAll(() => {
  expect(existsSync(join(root, 'dist', 'bin', 'main.cjs')), 'run `npm run build` first').toBe(true)
  dir = mkdtempSync(join(tmpdir(), 'modloop-agent-sdk-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A fresh project folder and fake Messages API server for one run; what the CLI wrote to stderr is kept. */
async function app(script: unknown | ((cwd: string) => unknown), name: string) {
  const cwd = mkdtempSync(join(dir, `${name}-`))
  const server = await startFakeAnthropic({ script: typeof script === 'function' ? script(cwd) : script })
  const stderr: string[] = []
  const options: Options = {
    cwd,
    // The one option an application changes to run on modloop; modloop's own query() ignores it.
    pathToClaudeCodeExecutable: EXECUTABLE,
    env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', MODLOOP_RETRY_BASE_MS: '1' },
    settingSources: ['project', 'local'],
    stderr: (data) => void stderr.push(data),
  }
  return { server, cwd, stderr, options }
}

async function collect(q: AsyncIterable<SdkMessage>): Promise<SdkMessage[]> {
  const out: SdkMessage[] = []
  for await (const m of q) out.push(m)
  return out
}

const lastResult = (messages: SdkMessage[]) => messages.filter((m) => m.type === 'result').at(-1) as Extract<SdkMessage, { type: 'result' }>
const lastToolResult = (server: FakeAnthropic) => (server.requests.at(-1)!.body as any).messages.at(-1).content[0]

describe.each(VIAS)('an Agent SDK application, run by %s', (via) => {
  it('a PreToolUse callback hook sees each Bash call first and may deny it; canUseTool answers the one it lets through', async () => {
    const a = await app([
      { reply: [{ tool_use: { id: 'toolu_rm', name: 'Bash', input: { command: 'rm -rf build' } } }] },
      { reply: [{ tool_use: { id: 'toolu_touch', name: 'Bash', input: { command: 'touch made.txt' } } }] },
      { reply: 'made it' },
    ], `bash-${via}`)
    const events: string[] = []
    const hookInputs: Record<string, unknown>[] = []
    try {
      const messages = await collect(run(via, 'make a file', {
        ...a.options,
        canUseTool: async (toolName, input, o) => {
          events.push(`canUseTool ${toolName} ${String(input.command)} ${o.toolUseID}`)
          return { behavior: 'allow', updatedInput: input }
        },
        hooks: {
          PreToolUse: [{
            matcher: 'Bash',
            hooks: [async (input, toolUseID) => {
              hookInputs.push(input as unknown as Record<string, unknown>)
              events.push(`PreToolUse ${toolUseID}`)
              const command = (input as { tool_input?: { command?: string } }).tool_input?.command ?? ''
              if (!command.startsWith('rm ')) return {}
              return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm here' } }
            }],
          }],
        },
      }))
      expect(lastResult(messages)).toMatchObject({ subtype: 'success', result: 'made it' })
      expect(events).toEqual(['PreToolUse toolu_rm', 'PreToolUse toolu_touch', 'canUseTool Bash touch made.txt toolu_touch'])
      expect(hookInputs[1]).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'touch made.txt' }, tool_use_id: 'toolu_touch', cwd: a.cwd })
      const denied = (a.server.requests[1]!.body as any).messages.at(-1).content[0]
      expect(denied).toMatchObject({ tool_use_id: 'toolu_rm', is_error: true })
      expect(JSON.stringify(denied.content)).toContain('no rm here')
      expect(existsSync(join(a.cwd, 'made.txt'))).toBe(true)
      expect(lastToolResult(a.server)).toMatchObject({ tool_use_id: 'toolu_touch' })
    } finally {
      await a.server.close()
    }
  })

  it('interrupt() ends a turn in flight; setPermissionMode() lets the next turn write without asking', async () => {
    // The first request is never answered in time: only the interrupt ends that turn.
    const a = await app((cwd: string) => [
      { reply: 'too late', delayMs: 60_000 },
      { reply: [{ tool_use: { id: 'toolu_write', name: 'Write', input: { file_path: join(cwd, 'notes.md'), content: 'hello\n' } } }] },
      { reply: 'written' },
    ], `interrupt-${via}`)
    const asked: string[] = []
    const input = channel()
    const results: SdkMessage[] = []
    let receipt: unknown
    let mode: unknown
    try {
      const q = run(via, input.input, {
        ...a.options,
        canUseTool: async (toolName) => { asked.push(toolName); return { behavior: 'deny', message: 'not now' } },
      })
      input.send('take your time')
      // Interrupted once the request is out (the loop goes on reading meanwhile: in process, the turn runs as it is read).
      const interrupted = (async () => {
        while (a.server.requests.length === 0) await new Promise((r) => setTimeout(r, 5))
        receipt = await q.interrupt()
      })()
      for await (const m of q) {
        if (m.type !== 'result') continue
        results.push(m)
        if (results.length === 1) {
          mode = await q.setPermissionMode('acceptEdits')
          input.send('write the notes')
        } else input.close()
      }
      await interrupted
      expect(receipt).toEqual({ still_queued: [] })
      expect(results[0]).toMatchObject({ is_error: true, terminal_reason: 'aborted_streaming' })
      expect(mode).toEqual({ mode: 'acceptEdits' })
      expect(results[1]).toMatchObject({ subtype: 'success', result: 'written' })
      expect(readFileSync(join(a.cwd, 'notes.md'), 'utf8')).toBe('hello\n')
      expect(asked).toEqual([])
    } finally {
      await a.server.close()
    }
  })

  it('applyFlagSettings() lets the next turn write without asking; setMcpPermissionModeOverride() warns of a server it does not know', async () => {
    const a = await app((cwd: string) => [
      { reply: 'ready' },
      { reply: [{ tool_use: { id: 'toolu_write', name: 'Write', input: { file_path: join(cwd, 'notes.md'), content: 'hello\n' } } }] },
      { reply: 'written' },
    ], `flags-${via}`)
    const asked: string[] = []
    const input = channel()
    let pinned: unknown
    let results = 0
    try {
      const q = run(via, input.input, {
        ...a.options,
        canUseTool: async (toolName) => { asked.push(toolName); return { behavior: 'deny', message: 'not now' } },
      })
      input.send('get ready')
      for await (const m of q) {
        if (m.type !== 'result') continue
        if (++results === 1) {
          await q.applyFlagSettings({ permissions: { allow: ['Write'] } })
          pinned = await q.setMcpPermissionModeOverride('calc', 'default')
          input.send('write the notes')
        } else input.close()
      }
      expect(pinned).toEqual({ warning: expect.stringContaining('no MCP server named "calc" is known to this session') })
      expect(readFileSync(join(a.cwd, 'notes.md'), 'utf8')).toBe('hello\n')
      expect(asked).toEqual([])
    } finally {
      await a.server.close()
    }
  })

  it('calls a tool of an in-process MCP server (createSdkMcpServer)', async () => {
    const a = await app([
      { reply: [{ tool_use: { id: 'toolu_add', name: 'mcp__calc__add', input: { a: 2, b: 3 } } }] },
      { reply: 'it is 5' },
    ], `mcp-${via}`)
    const calls: unknown[] = []
    const calc = createSdkMcpServer({
      name: 'calc', version: '1.0.0',
      tools: [tool('add', 'Adds two numbers', { a: z.number(), b: z.number() }, async (args) => {
        calls.push(args)
        return { content: [{ type: 'text', text: String(args.a + args.b) }] }
      })],
    })
    try {
      const messages = await collect(run(via, 'add 2 and 3', {
        ...a.options, mcpServers: { calc }, allowedTools: ['mcp__calc__add'],
      }))
      const init = messages.find((m) => m.type === 'system' && m.subtype === 'init') as Extract<SdkMessage, { subtype: 'init' }>
      expect(init.tools).toContain('mcp__calc__add')
      expect(init.mcp_servers).toContainEqual({ name: 'calc', status: 'connected', source: 'sdk' })
      expect(calls).toEqual([{ a: 2, b: 3 }])
      expect(lastToolResult(a.server)).toMatchObject({ tool_use_id: 'toolu_add', content: '5' })
      expect(lastResult(messages)).toMatchObject({ subtype: 'success', result: 'it is 5' })
    } finally {
      await a.server.close()
    }
  })

  it('canUseTool is told which MCP server serves the tool it asks about, and that the application registered it', async () => {
    const a = await app([
      { reply: [{ tool_use: { id: 'toolu_add', name: 'mcp__calc__add', input: { a: 2, b: 3 } } }] },
      { reply: 'done' },
    ], `mcp-ask-${via}`)
    const calc = createSdkMcpServer({ name: 'calc', version: '1.0.0', tools: [tool('add', 'Adds two numbers', { a: z.number(), b: z.number() }, async (args) => ({ content: [{ type: 'text', text: String(args.a + args.b) }] }))] })
    const asked: unknown[] = []
    try {
      await collect(run(via, 'add', {
        ...a.options, mcpServers: { calc },
        canUseTool: async (toolName, input, o) => { asked.push([toolName, o.mcpServer]); return { behavior: 'allow', updatedInput: input } },
      }))
      expect(asked).toEqual([['mcp__calc__add', { name: 'calc', source: 'sdk' }]])
      expect(lastToolResult(a.server)).toMatchObject({ tool_use_id: 'toolu_add', content: '5' })
    } finally {
      await a.server.close()
    }
  })

  it('a tool disallowed by name is neither offered to the model nor listed in system/init', async () => {
    const a = await app([{ reply: 'ok' }], `disallowed-${via}`)
    try {
      const messages = await collect(run(via, 'hi', { ...a.options, disallowedTools: ['Grep'] }))
      const init = messages.find((m) => m.type === 'system' && m.subtype === 'init') as Extract<SdkMessage, { subtype: 'init' }>
      expect(init.tools).toContain('Read')
      expect(init.tools).not.toContain('Grep')
      expect((a.server.requests[0]!.body as any).tools.map((t: { name: string }) => t.name)).toEqual(init.tools)
    } finally {
      await a.server.close()
    }
  })

  it('answers controls called once a single prompt\'s result is in (the SDK keeps stdin open until the session says it is idle): mcpServerStatus, readFile, seedReadState, reloadOutputStyles', async () => {
    const a = await app([{ reply: 'done' }], `after-result-${via}`)
    writeFileSync(join(a.cwd, 'notes.txt'), 'first line\n')
    const calc = createSdkMcpServer({ name: 'calc', version: '1.0.0', tools: [tool('one', 'Answers 1', {}, async () => ({ content: [{ type: 'text', text: '1' }] }))] })
    try {
      const q = run(via, 'hi', { ...a.options, mcpServers: { calc } })
      let statuses: unknown
      const files: unknown[] = []
      let styles: unknown
      for await (const m of q) {
        if (m.type !== 'result') continue
        mkdirSync(join(a.cwd, '.claude', 'output-styles'), { recursive: true })
        writeFileSync(join(a.cwd, '.claude', 'output-styles', 'terse.md'), '---\nname: terse\n---\nOne line only.\n')
        // Asked together, as the result comes: the SDK closes its input once the session says it is idle.
        let seeded: unknown
        ;[statuses, files[0], files[1], seeded, styles] = await Promise.all([
          q.mcpServerStatus(), q.readFile('notes.txt', { maxBytes: 5 }), q.readFile('missing.txt'),
          q.seedReadState('notes.txt', Math.floor(statSync(join(a.cwd, 'notes.txt')).mtimeMs)), q.reloadOutputStyles(),
        ])
        expect(seeded).toBeUndefined()
      }
      expect(statuses).toEqual([expect.objectContaining({ name: 'calc', status: 'connected' })])
      // Either way a file that cannot be read is null (the SDK turns the error answer into null).
      expect(files).toEqual([{ contents: 'first', absPath: join(a.cwd, 'notes.txt'), truncated: true, lossy: false }, null])
      expect(styles).toEqual({ available_output_styles: ['default', 'terse'] })
    } finally {
      await a.server.close()
    }
  })

  it('a UserPromptSubmit callback that blocks the prompt ends the query without an error', async () => {
    const a = await app([{ reply: 'never' }], `blocked-${via}`)
    try {
      const messages = await collect(run(via, 'deploy now', {
        ...a.options,
        hooks: { UserPromptSubmit: [{ hooks: [async () => ({ decision: 'block', reason: 'not on Fridays' })] }] },
      }))
      expect(lastResult(messages)).toMatchObject({ subtype: 'success', is_error: false, result: expect.stringContaining('not on Fridays') })
      expect(a.server.requests).toHaveLength(0)
    } finally {
      await a.server.close()
    }
  })

  it('a foreground subagent\'s start, prompt, progress and tool calls reach the application in Claude Code\'s order', async () => {
    const a = await app([
      { reply: [{ tool_use: { id: 'toolu_agent', name: 'Agent', input: { description: 'look', prompt: 'SUBTASK look around', run_in_background: false } } }] },
      { when: { firstUserText: 'SUBTASK' }, reply: [{ tool_use: { id: 'toolu_sub', name: 'Glob', input: { pattern: '*.none' } } }] },
      { when: { firstUserText: 'SUBTASK' }, reply: 'sub report' },
      { reply: 'main done' },
    ], `subagent-${via}`)
    try {
      const messages = await collect(run(via, 'go', a.options))
      const kinds = messages.filter((m) => m.type !== 'system' || m.subtype !== 'init').map((m) => {
        const under = 'parent_tool_use_id' in m && m.parent_tool_use_id ? ` <${m.parent_tool_use_id}>` : ''
        return m.type === 'system' || m.type === 'result' ? `${m.type}/${m.subtype}` : `${m.type}${under}`
      })
      expect(kinds).toEqual([
        'assistant', 'system/task_started', 'user <toolu_agent>', 'system/task_progress', 'assistant <toolu_agent>', 'user <toolu_agent>',
        'system/task_updated', 'system/task_notification', 'user', 'assistant', 'result/success',
      ])
      expect(messages.find((m) => m.type === 'user' && m.parent_tool_use_id)).toMatchObject({ message: { content: [{ type: 'text', text: 'SUBTASK look around' }] }, subagent_type: 'general-purpose', task_description: 'look' })
    } finally {
      await a.server.close()
    }
  })

  it('resumes a session by the id its result carried', async () => {
    const a = await app([{ reply: 'noted: the word is teal' }, { reply: 'it was teal' }], `resume-${via}`)
    try {
      const first = lastResult(await collect(run(via, 'remember the word teal', a.options)))
      const second = lastResult(await collect(run(via, 'which word?', { ...a.options, resume: first.session_id })))
      expect(second).toMatchObject({ subtype: 'success', result: 'it was teal', session_id: first.session_id })
      const sent = JSON.stringify((a.server.requests[1]!.body as any).messages)
      expect(sent).toContain('remember the word teal')
      expect(sent).toContain('noted: the word is teal')
    } finally {
      await a.server.close()
    }
  })
})

describe('the options', () => {
  it('every official option name is one of query()\'s, and a made-up one is a type error', () => {
    expectTypeOf<Exclude<keyof Options, keyof QueryOptions>>().toEqualTypeOf<never>()
    // @ts-expect-error an option neither SDK has
    const bad: QueryOptions = { cwd: '.', notAnOption: true }
    expect(bad).toBeDefined()
  })

  it('docs/agent-sdk.md has a row for every official option, and names every control request modloop answers', () => {
    type Official = { [K in keyof typeof OPTION_SUPPORT]: (typeof OPTION_SUPPORT)[K] extends 'modloop' ? never : K }[keyof typeof OPTION_SUPPORT]
    // The table of what each option does is exactly the official set.
    expectTypeOf<Exclude<keyof Options, Official>>().toEqualTypeOf<never>()
    expectTypeOf<Exclude<Official, keyof Options>>().toEqualTypeOf<never>()
    const doc = readFileSync(join(root, 'docs', 'agent-sdk.md'), 'utf8')
    const section = doc.slice(doc.indexOf('## Options'), doc.indexOf('## Query methods'))
    const rows = [...section.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]).sort()
    const official = Object.entries(OPTION_SUPPORT).filter(([, s]) => s !== 'modloop').map(([k]) => k).sort()
    expect(rows).toEqual(official)
    for (const subtype of CONTROL_SUBTYPES) expect(doc, subtype).toContain(`\`${subtype}\``)
  })

  it('a made-up option is named in a warning at run time', async () => {
    const a = await app([{ reply: 'ok' }], 'unknown-option')
    try {
      await collect(run('modloop', 'hi', { ...a.options, ...({ notAnOption: 1 } as object) }))
      expect(a.stderr.join('')).toContain('unknown option "notAnOption"')
    } finally {
      await a.server.close()
    }
  })
})
