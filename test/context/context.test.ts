import { execFileSync } from 'node:child_process'
import { rm, writeFile } from 'node:fs/promises'
import { release, type } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import contextMod from '../../mods/context/index.js'
import agentMod from '../../mods/agent/index.js'
import { defineMod } from '../../core/mod/define.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { conversation } from '../sdk/conversation.js'
import { tempDir, withOptions, writeTree } from './fixtures.js'
import { systemText } from '../helpers/system-text.js'

let repo: string
let plain: string
const identity = { GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 'test@example.com' }
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, ...identity }, stdio: 'pipe' }).toString()

beforeAll(async () => {
  repo = await tempDir('context-repo')
  plain = await tempDir('context-plain')
  await writeTree(repo, { 'a.txt': 'one\n', 'b.txt': 'two\n' })
  git('init', '-q', '-b', 'main')
  git('config', 'user.name', 'Test')
  git('add', '.')
  git('commit', '-q', '-m', 'initial commit')
  git('checkout', '-q', '-b', 'feature')
  await writeFile(join(repo, 'b.txt'), 'changed\n')
  await writeFile(join(repo, 'c.txt'), 'new\n')
  git('commit', '-q', '--allow-empty', '-m', 'second commit')
})
afterAll(async () => {
  await rm(repo, { recursive: true, force: true })
  await rm(plain, { recursive: true, force: true })
})

describe('context', () => {
  it('adds the environment and then the git snapshot at the end of the system prompt', async () => {
    // A file appearing mid-session does not change the snapshot: it was taken once, at the start.
    const writer = defineMod({ name: 'writer', register: (on) => on('tool.call', async (_$, e, next) => { await writeFile(join(repo, 'late.txt'), 'x'); return next(e) }) })
    const run = await runScript([{ reply: [{ tool_use: { name: 'Echo', input: { text: 'x' } } }] }, { reply: 'ok' }], 'hi', { cwd: repo, mods: [toolsMod(), writer, contextMod], model: 'claude-test-1' })
    await rm(join(repo, 'late.txt'))
    const system = systemText(run.requests[0]!.body)
    expect(systemText(run.requests[1]!.body)).toBe(system)
    const env = system.indexOf('<env>')
    const gitAt = system.indexOf('gitStatus:')
    expect(env).toBeGreaterThan(0)
    expect(gitAt).toBeGreaterThan(env)
    expect(system).toContain([
      '<env>',
      `Working directory: ${repo}`,
      'Is the directory a git repository: yes',
      `Platform: ${process.platform}`,
      `OS version: ${type()} ${release()}`,
    ].join('\n'))
    expect(system).toMatch(/\nToday's date: \d{4}-\d{2}-\d{2}\n<\/env>\nYou are running on the model claude-test-1\./)
    const head = git('log', '--oneline', '-n', '2').trim()
    expect(system.slice(gitAt)).toBe([
      'gitStatus: the state of the repository when this session started. It is a snapshot: it does not change as the conversation goes on.',
      'Current branch: feature',
      'Main branch (the usual base for pull requests): main',
      'Git user: Test',
      'Status:\n M b.txt\n?? c.txt',
      `Recent commits:\n${head}`,
    ].join('\n\n'))
  })

  it('a subagent starts with the snapshot beside its prompt; an Explore one, without the project\'s memory, goes without it; both get the attribution lines', async () => {
    const run = await runScript([
      { reply: [{ tool_use: { name: 'Agent', input: { description: 'look', prompt: 'SUB look around', run_in_background: false } } }] },
      { reply: 'found', when: { firstUserText: 'SUB look around' } },
      { reply: [{ tool_use: { name: 'Agent', input: { description: 'explore', prompt: 'EXPLORE look around', subagent_type: 'Explore', run_in_background: false } } }] },
      { reply: 'explored', when: { firstUserText: 'EXPLORE look around' } },
      { reply: 'done' },
    ], 'hi', { cwd: repo, mods: [toolsMod(), contextMod, agentMod], settings: { attribution: { commit: 'Made-with: acme' } } })
    const first = (text: string) => run.requests.find((r) => JSON.stringify(r.body.messages[0]).includes(text))!.body
    const sub = first('SUB look around')
    expect(JSON.stringify(sub.messages[0])).toContain('Current branch: feature')
    expect(systemText(sub)).not.toContain('gitStatus:')
    const explore = JSON.stringify(first('EXPLORE look around').messages[0])
    expect(explore).not.toContain('Current branch')
    for (const text of [JSON.stringify(sub.messages[0]), explore]) expect(text).toContain('Close each commit message with:\\nMade-with: acme')
  })

  it('outside a repository: no git section, "no" in the environment; options turn each section off', async () => {
    const outside = await runScript([{ reply: 'ok' }], 'hi', { cwd: plain, mods: [contextMod] })
    const system = systemText(outside.requests[0]!.body)
    expect(system).toContain('Is the directory a git repository: no')
    expect(system).not.toContain('gitStatus')
    const noGit = systemText((await runScript([{ reply: 'ok' }], 'hi', { cwd: repo, mods: [withOptions(contextMod, { git: false })] })).requests[0]!.body)
    expect(noGit).toContain('<env>')
    expect(noGit).not.toContain('gitStatus')
    const noEnv = systemText((await runScript([{ reply: 'ok' }], 'hi', { cwd: repo, mods: [withOptions(contextMod, { env: false })] })).requests[0]!.body)
    expect(noEnv).not.toContain('<env>')
    expect(noEnv).toContain('gitStatus')
  })

  it('the settings\' includeGitInstructions: false leaves the snapshot out; CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS=0 brings it back', async () => {
    const project = await tempDir('context-nogit')
    try {
      await writeTree(project, { '.claude/settings.json': JSON.stringify({ includeGitInstructions: false }) })
      execFileSync('git', ['init', '-q'], { cwd: project })
      const fromFile = systemText((await runScript([{ reply: 'ok' }], 'hi', { cwd: project, mods: [contextMod] })).requests[0]!.body)
      expect(fromFile).toContain('Is the directory a git repository: yes')
      expect(fromFile).not.toContain('gitStatus')
      // The last source that sets it wins: --settings over the project's file.
      const back = systemText((await runScript([{ reply: 'ok' }], 'hi', { cwd: project, mods: [contextMod], settings: { includeGitInstructions: true } })).requests[0]!.body)
      expect(back).toContain('gitStatus')
      const byEnv = systemText((await runScript([{ reply: 'ok' }], 'hi', { cwd: project, mods: [contextMod], env: { CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS: '0' } })).requests[0]!.body)
      expect(byEnv).toContain('gitStatus')
    } finally {
      await rm(project, { recursive: true, force: true })
    }
  })

  it("the settings' attribution lines are asked for in the first user message only; none without them, none with includeGitInstructions: false", async () => {
    const project = await tempDir('context-attribution')
    try {
      await writeTree(project, { '.claude/settings.json': JSON.stringify({ attribution: { commit: 'Made-with: acme', pr: '' }, includeCoAuthoredBy: false }) })
      const messagesOf = async (settings?: Record<string, unknown>) => {
        const run = await runScript([{ reply: 'ok' }], 'hi', { cwd: project, mods: [contextMod], ...(settings ? { settings } : {}) })
        return JSON.stringify(run.requests[0]!.body.messages)
      }
      const c = await conversation([{ reply: 'one' }, { reply: 'two' }], { cwd: project, mods: [contextMod] })
      await c.say('hi')
      await c.say('again')
      await c.end()
      const sent = JSON.stringify(c.server.requests[1]!.body.messages)
      expect(sent).toContain('- Close each commit message with:\\nMade-with: acme')
      expect(sent).not.toContain('pull request description with')
      expect(sent.split('Made-with: acme')).toHaveLength(2)
      // A later source adds the pull request line; the commit line stays.
      expect(await messagesOf({ attribution: { pr: 'Built with acme' } })).toContain('Made-with: acme\\n- Close each pull request description with:\\nBuilt with acme')
      expect(await messagesOf({ attribution: { commit: '' } })).not.toContain('Attribution')
      expect(await messagesOf({ includeGitInstructions: false })).not.toContain('Attribution')
    } finally {
      await rm(project, { recursive: true, force: true })
    }
  })

  it('lists the directories the session may use besides its cwd (--add-dir) in the environment', async () => {
    const run = await runScript([{ reply: 'ok' }], 'hi', { cwd: plain, mods: [contextMod], additionalDirectories: [repo] })
    expect(systemText(run.requests[0]!.body)).toContain(`Is the directory a git repository: no\nAdditional working directories:\n  - ${repo}\nPlatform:`)
  })

  it('caps a long status at a line boundary', async () => {
    await writeTree(repo, Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`untracked-${String(i).padStart(2, '0')}.txt`, 'x'])))
    try {
      const run = await runScript([{ reply: 'ok' }], 'hi', { cwd: repo, mods: [withOptions(contextMod, { maxStatusChars: 200 })] })
      const status = (systemText(run.requests[0]!.body)).split('Status:\n')[1]!.split('\n\nRecent commits')[0]!
      expect(status).toMatch(/\n\.\.\. \(\d+ more lines; run git status for the whole list\)$/)
      expect(status.split('\n').slice(0, -1).every((l) => /^( M|\?\?) \S+$/.test(l))).toBe(true)
    } finally {
      for (let i = 0; i < 60; i++) await rm(join(repo, `untracked-${String(i).padStart(2, '0')}.txt`))
    }
  })
})

describe('the system prompt around the context (spec loop-and-sdk §4.2)', () => {
  const blocks = (run: { requests: { body: any }[] }) => (run.requests[0]!.body.system as { text: string }[]).map((b) => b.text)

  it('ends with what the caller appends: the preset\'s append and --append-system-prompt come after the environment and the git status', async () => {
    const run = await runScript([{ reply: 'ok' }], 'hi', {
      cwd: repo, mods: [contextMod], systemPrompt: { type: 'preset', preset: 'claude_code', append: 'APPENDED-BY-PRESET' }, appendSystemPrompt: 'APPENDED-BY-FLAG',
    } as never)
    const texts = blocks(run)
    expect(texts.at(-2)!.trim()).toBe('APPENDED-BY-PRESET')
    expect(texts.at(-1)!.trim()).toBe('APPENDED-BY-FLAG')
    expect(texts.findIndex((t) => t.includes('gitStatus') || t.includes('Current branch'))).toBeLessThan(texts.length - 2)
    expect(texts.findIndex((t) => t.includes('Working directory'))).toBeGreaterThanOrEqual(0)
  })

  it('a custom string is sent as given: no environment or git status after it', async () => {
    const run = await runScript([{ reply: 'ok' }], 'hi', { cwd: repo, mods: [contextMod], systemPrompt: 'You are a terse assistant.' })
    expect(blocks(run)).toEqual(['You are a terse assistant.'])
  })
})
