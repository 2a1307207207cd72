import { execFileSync } from 'node:child_process'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { EVENT_NAMES } from '../../core/events/catalog.js'
import { query } from '../../entry.js'
import { runCli } from '../helpers/cli.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { conversation } from '../sdk/conversation.js'
import { checkRun as check, checkSubagents, readNotes, recordingProject, type Recorded } from './check.js'

/**
 * Event conformance: scripted sessions in each mode, with a mod that records every catalog event
 * raised. Every payload must pass its schema (core/events/schemas.ts), lifecycle events must come
 * in order, the events of a plain turn must fire in every mode, and every declared event must fire
 * in some mode: a catalog entry nothing raises fails here. The interactive terminal has its own
 * file (interactive.test.ts), as it runs under tmux.
 */

const seen = new Map<string, Recorded[]>()
const dirs: string[] = []
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })))
})

async function project(config: Record<string, unknown> = {}, recorder: { ask?: boolean } = {}) {
  const p = await recordingProject(config, recorder)
  dirs.push(p.dir)
  return p
}

function checkRun(mode: string, events: Recorded[]): void {
  seen.set(mode, events)
  check(mode, events)
}

describe('event conformance', () => {
  for (const format of ['text', 'json', 'stream-json']) {
    it(`headless -p --output-format ${format}`, async () => {
      const p = await project()
      const run = await runCli(['-p', 'What do the notes say?', '--output-format', format], { script: readNotes(p.dir), cwd: p.dir })
      expect(run.code, run.err).toBe(0)
      checkRun(`headless ${format}`, await p.read())
    })
  }

  it('query() with a single prompt (a mod asks the person; no UI answers)', async () => {
    const p = await project({}, { ask: true })
    const server = await startFakeAnthropic({ script: readNotes(p.dir) })
    try {
      const q = query({ prompt: 'What do the notes say?', options: { cwd: p.dir, env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 't' } } })
      for await (const m of q) if (m.type === 'result') expect(m.subtype).toBe('success')
    } finally {
      await server.close()
    }
    checkRun('query() single', await p.read())
  })

  it('query() streaming: a mention, an approved ask with a permission update, a denied call, an invalid call, a subagent, /model and /compact', async () => {
    const p = await project({ permissions: { deny: ['Bash(rm:*)'] } })
    const script = [
      { reply: [
        { tool_use: { name: 'Bash', input: { command: 'touch made.txt', description: 'make a file' } } },
        { tool_use: { name: 'Bash', input: { command: 'rm -f notes.txt', description: 'remove the notes' } } },
        { tool_use: { name: 'Read', input: { path: 'notes.txt' } } },
      ] },
      { reply: [{ tool_use: { name: 'Agent', input: { description: 'check', prompt: 'Read the notes, then say done.', subagent_type: 'general-purpose', run_in_background: false } } }] },
      // The subagent's own turn: a tool call, then its report.
      ...readNotes(p.dir).slice(0, 1),
      { reply: 'done' },
      { reply: 'All done.' },
      { reply: 'Summary: the notes were read and a subagent said done.' },
    ]
    const c = await conversation(script, {
      bare: false, cwd: p.dir,
      canUseTool: async (_tool, input) => ({
        behavior: 'allow', updatedInput: input,
        updatedPermissions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'touch made.txt' }], behavior: 'allow', destination: 'session' }],
      }),
    })
    try {
      expect((await c.say('Look at @notes.txt and check it.')).subtype).toBe('success')
      expect((await c.say('/model claude-haiku-4-5')).is_error).toBe(false)
      expect((await c.say('/compact')).is_error).toBe(false)
    } finally {
      await c.end()
    }
    const events = await p.read()
    checkRun('query() streaming', events)
    const names = new Set(events.map((r) => r.event))
    for (const name of ['prompt.mention', 'prompt.attachment', 'permission.ask', 'permission.update', 'permission.denied', 'agent.spawn', 'command.run', 'model.switch', 'session.compact', 'tool.invalid'] as const) {
      expect(names, `${name} never fired`).toContain(name)
    }
    // The subagent's own turn raises the turn and tool events with its agentId.
    checkSubagents('query() streaming', events)
    expect(events.some((r) => r.event === 'tool.call' && typeof r.e.agentId === 'string' && r.e.tool === 'Read')).toBe(true)
  })

  it('headless -p: a request the API refuses as too long is compacted and sent again', async () => {
    const p = await project()
    const tooLong = { error: { status: 400, message: 'prompt is too long: 210000 tokens > 200000 maximum' } }
    const run = await runCli(['-p', 'What do the notes say?', '--output-format', 'json'], {
      script: [readNotes(p.dir)[0], tooLong, { reply: 'SUMMARY: the notes were read' }, readNotes(p.dir)[1]], cwd: p.dir,
    })
    expect(run.code, run.err).toBe(0)
    const events = await p.read()
    checkRun('headless prompt too long', events)
    const names = events.map((r) => r.event)
    expect(names).toContain('turn.overflow')
    expect(names).toContain('session.compact')
  })

  it('headless -p: a subagent isolated in a git worktree', async () => {
    const p = await project()
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd: p.dir })
    git('init', '-q')
    git('commit', '-q', '--allow-empty', '-m', 'init')
    const script = [
      { reply: [{ tool_use: { name: 'Agent', input: { description: 'check', prompt: 'Say done.', subagent_type: 'general-purpose', run_in_background: false, isolation: 'worktree' } } }] },
      { reply: 'done' },
      { reply: 'All done.' },
    ]
    const run = await runCli(['-p', 'Check it in a worktree.'], { script, cwd: p.dir })
    expect(run.code, run.err).toBe(0)
    const events = await p.read()
    checkRun('headless isolated subagent', events)
    expect(events.map((r) => r.event)).toContain('worktree.create')
  })

  it('headless -p: EnterWorktree and ExitWorktree with a worktree settings hooks make and remove', async () => {
    const p = await project()
    const made = join(p.dir, 'work')
    await mkdir(join(p.dir, '.claude'))
    await writeFile(join(p.dir, '.claude', 'settings.json'), JSON.stringify({ hooks: {
      WorktreeCreate: [{ hooks: [{ type: 'command', command: `mkdir -p ${made}; echo ${made}` }] }],
      WorktreeRemove: [{ hooks: [{ type: 'command', command: `rm -rf ${made}` }] }],
    } }))
    const script = [
      { reply: [{ tool_use: { name: 'EnterWorktree', input: { name: 'w' } } }] },
      { reply: [{ tool_use: { name: 'ExitWorktree', input: { action: 'remove', discard_changes: true } } }] },
      { reply: 'All done.' },
    ]
    const run = await runCli(['-p', 'Work in a worktree.', '--dangerously-skip-permissions', '--trust-workspace'], { script, cwd: p.dir })
    expect(run.code, run.err).toBe(0)
    const events = await p.read()
    checkRun('headless worktree tools', events)
    expect(events.map((r) => r.event)).toEqual(expect.arrayContaining(['worktree.create', 'worktree.remove']))
  })

  it('every declared event fires in some mode', () => {
    const fired = new Set([...seen.values()].flat().map((r) => r.event))
    expect(EVENT_NAMES.filter((name) => !fired.has(name)), 'declared events that nothing raised').toEqual([])
  })
})
