import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import commandsMod from '../../mods/commands/index.js'
import { expandShell } from '../../mods/commands/shell-expansion.js'
import { skillListing } from '../../mods/commands/skill-listing.js'
import { renderBody } from '../../mods/commands/render-body.js'
import bashMod from '../../mods/bash/index.js'
import memoryMod from '../../mods/memory/index.js'
import mentionsMod from '../../mods/mentions/index.js'
import agentMod from '../../mods/agent/index.js'
import permissionsMod from '../../mods/permissions/index.js'
import { runScript } from '../loop/helpers.js'
import { conversation } from '../sdk/conversation.js'
import { tempDir, texts, withOptions, writeTree } from './fixtures.js'
import { systemText } from '../helpers/system-text.js'

let root: string
let cwd: string
let home: string

beforeAll(async () => {
  root = await tempDir('commands')
  cwd = join(root, 'project')
  home = join(root, 'home')
  await writeTree(root, {
    'project/.claude/commands/review.md': '---\ndescription: Review a file\nargument-hint: [file] [focus]\nallowed-tools: Bash(git diff:*), Read\nmodel: claude-haiku-4-5\n---\nReview $0 with focus on $1. All: $ARGUMENTS. Price: \\$5.\n',
    'project/.claude/commands/plain.md': 'Summarize the project.\n',
    'project/.claude/commands/git/status.md': [
      '---', 'description: Git status', '---',
      'Branch: !`echo main-branch`', 'Line: !`echo line-form $0`', '!important: prose, not a command', 'See @notes.md',
      '```!', 'echo block1', 'echo block2', '```',
      '```', '!not-run', '```',
    ].join('\n'),
    'project/.claude/commands/broken.md': '---\ndescription: "unclosed\n---\nBroken body $ARGUMENTS\n',
    'project/.claude/commands/index-args.md': 'First: $ARGUMENTS[0], missing: $3\n',
    'project/.claude/commands/named.md': '---\ndescription: Named words\narguments: [file, focus]\n---\nF=$file FO=$focus U=$undeclared N=$0/$1/$10 S=$1x\n',
    'project/.claude/commands/named-string.md': '---\ndescription: Named words, a string\narguments: file focus\n---\n$focus on $file\n',
    'home/.claude/commands/user-cmd.md': '---\ndescription: From home\n---\nUser command.\n',
    'project/.claude/skills/pdf/SKILL.md': '---\nname: pdf-tools\ndescription: Work with PDF files\nwhen_to_use: when a PDF is involved\n---\nUse pdftotext. Dir: ${CLAUDE_SKILL_DIR}. Args: $ARGUMENTS\n',
    'project/.claude/skills/secret/SKILL.md': '---\ndescription: Hidden from the model\ndisable-model-invocation: true\n---\nSecret.\n',
    'project/.claude/skills/model-only/SKILL.md': '---\ndescription: For the model\nuser-invocable: false\n---\nModel only.\n',
    'project/notes.md': 'Notes!\n',
  })
})
afterAll(() => rm(root, { recursive: true, force: true }))

const commands = (extra: Record<string, unknown> = {}) => withOptions(commandsMod, { home, ...extra })
// A typed command's first block names it (tested below); the body the command renders follows.
const bodyText = (run: { requests: { body: any }[] }) => texts(run.requests[0]!.body, 0)[1]

describe('slash commands from .claude/commands', () => {
  it('fills $0, $1 and $ARGUMENTS (shell-style quoting, \\$ escapes) and publishes the frontmatter grants', async () => {
    let invocation: unknown
    const probe = defineMod({ name: 'probe', uses: { commands: 'required' }, register: (on) => on('turn.start', ($, e, next) => { invocation = $.capability.use('commands')?.invocation(); return next(e) }) })
    const run = await runScript([{ reply: 'ok' }], '/review src/a.ts "error handling"', { cwd, mods: [commands(), probe] })
    expect(bodyText(run)).toBe('Review src/a.ts with focus on error handling. All: src/a.ts "error handling". Price: $5.')
    expect(invocation).toEqual({ command: 'review', source: 'project', file: join(cwd, '.claude/commands/review.md'), allowedTools: ['Bash(git diff:*)', 'Read'], model: 'claude-haiku-4-5' })
  })

  it('a typed command reaches the model behind a header naming it and its arguments (no arguments, no args line)', async () => {
    const run = await runScript([{ reply: 'ok' }], '/review src/a.ts  "error handling"', { cwd, mods: [commands()], extraArgs: { 'replay-user-messages': null } })
    expect(texts(run.requests[0]!.body, 0).slice(0, 2)).toEqual([
      '<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>src/a.ts  "error handling"</command-args>\n',
      'Review src/a.ts with focus on error handling. All: src/a.ts  "error handling". Price: $5.',
    ])
    // The echo of the prompt is the header, as Claude Code's is.
    const echo = run.messages.find((m) => m.type === 'user' && m.isReplay)
    expect(echo?.type === 'user' && echo.message.content).toBe('<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>src/a.ts  "error handling"</command-args>')
    const bare = await runScript([{ reply: 'ok' }], '/git:status', { cwd, mods: [commands()] })
    expect(texts(bare.requests[0]!.body, 0)[0]).toBe('<command-message>git:status</command-message>\n<command-name>/git:status</command-name>\n')
    // Text the model reads as typed gets no header: a prompt that is no command, and a headless unknown command.
    expect(texts((await runScript([{ reply: 'ok' }], '/nope x', { cwd, mods: [commands()] })).requests[0]!.body, 0)[0]).toBe('/nope x')
  })

  it('appends the arguments to a body without placeholders; $ARGUMENTS[N] is 0-based and a missing $N stays', async () => {
    expect(bodyText(await runScript([{ reply: 'ok' }], '/plain extra words', { cwd, mods: [commands()] }))).toBe('Summarize the project.\n\nARGUMENTS: extra words')
    expect(bodyText(await runScript([{ reply: 'ok' }], '/plain', { cwd, mods: [commands()] }))).toBe('Summarize the project.')
    expect(bodyText(await runScript([{ reply: 'ok' }], '/index-args a b', { cwd, mods: [commands()] }))).toBe('First: a, missing: $3')
  })

  it('a $ARGUMENTS[N] beyond the words given stays as written, as a missing $N does', () => {
    expect(renderBody('A=$ARGUMENTS[0] B=$ARGUMENTS[2] C=$2', 'x "y z"', {})).toBe('A=x B=$ARGUMENTS[2] C=$2')
  })

  it('$N is 0-based as $ARGUMENTS[N] is; the arguments frontmatter names the words ($file), a declared name with no word is empty', async () => {
    const named = (prompt: string) => runScript([{ reply: 'ok' }], prompt, { cwd, mods: [commands()] }).then(bodyText)
    expect(await named('/named a.ts "error paths"')).toBe('F=a.ts FO=error paths U=$undeclared N=a.ts/error paths/$10 S=$1x')
    expect(await named('/named a.ts')).toBe('F=a.ts FO= U=$undeclared N=a.ts/$1/$10 S=$1x')
    expect(await named('/named-string x.ts speed')).toBe('speed on x.ts')
  })

  it('nested directories give dir:name; !`cmd` and ```! blocks run, a line merely starting with ! does not; @file is left for the mention pass', async () => {
    const run = await runScript([{ reply: 'ok' }], '/git:status foo', { cwd, mods: [commands(), mentionsMod] })
    const [, text, mention] = texts(run.requests[0]!.body, 0)
    expect(text).toBe(['Branch: main-branch', 'Line: line-form foo', '!important: prose, not a command', 'See @notes.md', 'block1\nblock2', '```', '!not-run', '```'].join('\n'))
    expect(mention).toContain(`${cwd}/notes.md`)
    expect(mention).toContain('     1\tNotes!')
  })

  it("the settings' disableSkillShellExecution puts a note in place of each shell line, running none", async () => {
    const dir = join(root, 'shell-off')
    await writeTree(dir, {
      '.claude/settings.json': JSON.stringify({ disableSkillShellExecution: true }),
      '.claude/commands/make.md': 'Made: !`touch made.txt && echo yes`\n```!\ntouch block.txt\n```\nend\n',
    })
    const run = await runScript([{ reply: 'ok' }], '/make', { cwd: dir, mods: [commands()] })
    expect(bodyText(run)).toBe('Made: [shell command execution disabled by policy]\n[shell command execution disabled by policy]\nend')
    expect(existsSync(join(dir, 'made.txt')) || existsSync(join(dir, 'block.txt'))).toBe(false)
    // A later source turns them back on.
    const on = await runScript([{ reply: 'ok' }], '/make', { cwd: dir, mods: [commands()], settings: { disableSkillShellExecution: false } })
    expect(bodyText(on)).toContain('Made: yes')
  })

  it('a missing @file of a command body warns naming the command file and line', async () => {
    const dir = join(root, 'missing-ref')
    await writeTree(dir, { '.claude/commands/brief.md': '---\ndescription: Brief\n---\n\nRead this first.\nThen @gone.md and @here.md, please.\n', 'here.md': 'Here.\n' })
    const warnings: string[] = []
    const run = await runScript([{ reply: 'ok' }], '/brief', { cwd: dir, mods: [commands(), mentionsMod], log: (l) => warnings.push(l) })
    expect(warnings).toEqual([`mentions: @gone.md (in ${dir}/.claude/commands/brief.md:6): not attached: ${dir}/gone.md does not exist`])
    expect(texts(run.requests[0]!.body, 0)[2]).toContain('     1\tHere.')
    // Typed in the prompt itself, the same mention names no file.
    warnings.length = 0
    await runScript([{ reply: 'ok' }], 'see @gone.md', { cwd: dir, mods: [commands(), mentionsMod], log: (l) => warnings.push(l) })
    expect(warnings).toEqual([`mentions: @gone.md: not attached: ${dir}/gone.md does not exist`])
  })

  it('reads the .claude/commands and skills of every folder from the repository root down to cwd; the nearer wins a name', async () => {
    const repo = await tempDir('commands-repo')
    try {
      await writeTree(repo, {
        '.git/': '',
        '.claude/commands/top.md': 'Top command.\n',
        '.claude/commands/both.md': 'Root version.\n',
        '.claude/skills/rooted/SKILL.md': '---\ndescription: A root skill\n---\nRooted.\n',
        'app/.claude/commands/both.md': 'App version.\n',
      })
      const app = join(repo, 'app')
      expect(bodyText(await runScript([{ reply: 'ok' }], '/top', { cwd: app, mods: [commands()] }))).toBe('Top command.')
      expect(bodyText(await runScript([{ reply: 'ok' }], '/both', { cwd: app, mods: [commands()] }))).toBe('App version.')
      expect(bodyText(await runScript([{ reply: 'ok' }], '/rooted', { cwd: app, mods: [commands()] }))).toContain('Rooted.')
    } finally {
      await rm(repo, { recursive: true, force: true })
    }
  })

  it("the user's own command or skill wins a name the project's shares; a skill wins over a command of either", async () => {
    const dir = await tempDir('commands-precedence')
    try {
      await writeTree(dir, {
        'home/.claude/commands/both.md': 'User command.\n',
        'project/.claude/commands/both.md': 'Project command.\n',
        'home/.claude/skills/sk/SKILL.md': '---\ndescription: user skill\n---\nUser skill.\n',
        'project/.claude/skills/sk/SKILL.md': '---\ndescription: project skill\n---\nProject skill.\n',
        'home/.claude/commands/mixed.md': 'User command.\n',
        'project/.claude/skills/mixed/SKILL.md': '---\ndescription: project skill\n---\nProject skill.\n',
      })
      const run = (prompt: string) => runScript([{ reply: 'ok' }], prompt, { cwd: join(dir, 'project'), mods: [withOptions(commandsMod, { home: join(dir, 'home') })] }).then(bodyText)
      expect(await run('/both')).toBe('User command.')
      expect(await run('/sk')).toContain('User skill.')
      expect(await run('/mixed')).toContain('Project skill.')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('malformed frontmatter names the file; the command still loads with its body', async () => {
    const warnings: string[] = []
    const run = await runScript([{ reply: 'ok' }], '/broken x', { cwd, mods: [commands()], log: (l) => warnings.push(l) })
    expect(bodyText(run)).toBe('Broken body x')
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`^commands: ${cwd}/\\.claude/commands/broken\\.md: malformed frontmatter`))])
  })

  it('/help lists every registered command with its description and hint, without a model call', async () => {
    const run = await runScript([], '/help', { cwd, mods: [commands()] })
    expect(run.requests).toHaveLength(0)
    const help = run.result.result as string
    expect(help.split('\n')).toEqual([
      'Slash commands:',
      '/broken - Broken body $ARGUMENTS (project)',
      '/btw <question> - Ask a quick side question about the conversation: answered without tools, and neither it nor the answer joins the history',
      '/clear - Start a new conversation: the history is dropped and a new session id begins',
      '/config [key=value] - Show the settings modloop reads, or change one: /config <key>=<value> writes it where Claude Code keeps it',
      '/context - Show how full the context window is and how much room is left',
      "/cost - Show the session's cost, API and wall time, and tokens by model",
      '/export [file] - Write the conversation as plain text to a file (default: named for the time and the first prompt, in the session folder)',
      '/git:status - Git status (project)',
      '/help - List the slash commands of this session',
      '/index-args - First: $ARGUMENTS[0], missing: $3 (project)',
      '/mods - List the loaded mods and the commands each registered',
      '/named - Named words (project)',
      '/named-string - Named words, a string (project)',
      '/pdf-tools - Work with PDF files (project skill)',
      '/plain - Summarize the project. (project)',
      '/reload - Re-import the mods loaded from files',
      '/reload-skills - Read the skill and command directories again: skills added or changed on disk run without a restart',
      '/review [file] [focus] - Review a file (project)',
      '/secret - Hidden from the model (project skill)',
      '/settings [key=value] - Show or change the settings (as /config)',
      "/status - Show modloop's version, the session, its folder, model, permission mode and MCP servers",
      "/usage - Show the session's cost, API and wall time, and tokens by model (as /cost)",
      '/user-cmd - From home (user)',
    ])
  })

  it('/mods lists every loaded mod, also one that only handles events, with the commands of each', async () => {
    const memory = withOptions(memoryMod, { home, managedPath: false })
    const run = await runScript([], '/mods', { cwd, mods: [commands(), memory, mentionsMod] })
    expect(run.requests).toHaveLength(0)
    const lines = (run.result.result as string).split('\n')
    expect(lines[0]).toMatch(/^Mods \(\d+, in load order\):$/)
    expect(lines).toContainEqual(expect.stringMatching(/^commands \(query\(\) options\) - Custom slash commands.*; commands: \/broken, \/btw, \/clear, \/config, \/context, \/cost, \/export, \/git:status, \/help, /))
    expect(lines).toContainEqual(expect.stringMatching(/^memory \(query\(\) options\) - CLAUDE\.md and AGENTS\.md memory files/))
    expect(lines.find((l) => l.startsWith('memory'))).toMatch(/; commands: \/init, \/memory$/)
    expect(lines.find((l) => l.startsWith('mentions'))).not.toContain('commands:')
  })

  it("/cost shows the session's cost, API and wall time, and tokens by model, without a model call", async () => {
    const usage = (input: number, output: number, cacheRead = 0) => ({ input_tokens: input, output_tokens: output, cache_read_input_tokens: cacheRead })
    const c = await conversation([
      { reply: 'one', usage: usage(1_200, 300, 2_000), delayMs: 150 },
      { reply: 'two', usage: usage(40_000, 1_500_000) },
    ], { cwd, model: 'claude-sonnet-4-5', mods: [commands()] })
    try {
      const before = await c.say('/cost')
      expect(before.result).toMatch(/^Estimated cost: {8}\$0\.0000\nTotal duration \(API\): {2}0\.0s\nTotal duration \(wall\): \d+\.\ds\nTotal code changes: {4}0 lines added, 0 lines removed\nUsage: +0 input, 0 output, 0 cache read, 0 cache write$/)
      await c.say('first')
      await c.q.setModel('claude-haiku-4-5')
      const last = await c.say('second')
      const cost = await c.say('/cost')
      expect(c.server.requests).toHaveLength(2)
      const lines = (cost.result as string).split('\n')
      const m = last.modelUsage
      expect(lines[0]).toBe(`Estimated cost:        $${last.total_cost_usd.toFixed(2)}`)
      expect(last.total_cost_usd).toBeGreaterThan(0.5)
      expect(Number(/Total duration \(API\): +(\d+\.\d)s/.exec(lines[1]!)![1])).toBeGreaterThanOrEqual(0.1)
      expect(lines[3]).toBe('Total code changes:    0 lines added, 0 lines removed')
      expect(lines.slice(4)).toEqual([
        'Usage by model:',
        `  claude-sonnet-4-5:  1.2k input, 300 output, 2k cache read, 0 cache write ($${m['claude-sonnet-4-5']!.costUSD.toFixed(4)})`,
        `  claude-haiku-4-5:   40k input, 1.5m output, 0 cache read, 0 cache write ($${m['claude-haiku-4-5']!.costUSD.toFixed(2)})`,
      ])
    } finally {
      await c.end()
    }
  })

  it('/usage, the name Claude Code lists for /cost, answers as /cost does, without a model call', async () => {
    const run = await runScript([], '/usage', { cwd, mods: [commands()] })
    expect(run.requests).toHaveLength(0)
    expect(run.result).toMatchObject({ local_command: 'usage' })
    expect(run.result.result).toMatch(/^Estimated cost: {8}\$0\.0000\nTotal duration \(API\): {2}0\.0s\nTotal duration \(wall\): \d+\.\ds\nTotal code changes: {4}0 lines added, 0 lines removed\nUsage: +0 input, 0 output, 0 cache read, 0 cache write$/)
  })

  it('/context shows how full the context window is, as the last request left it, without a model call', async () => {
    const c = await conversation([{ reply: 'one', usage: { input_tokens: 40_000, output_tokens: 2_000, cache_read_input_tokens: 8_000 } }], { cwd, model: 'claude-sonnet-4-5', mods: [commands()] })
    try {
      await c.say('first')
      const shown = await c.say('/context')
      expect(c.server.requests).toHaveLength(1)
      expect((shown.result as string).split('\n')).toEqual(['Context: 50k of 200k tokens (25%) - claude-sonnet-4-5', 'Free:    150k tokens'])
    } finally {
      await c.end()
    }
  })

  it("a local command stays in the history as context: caveat, command and output; the memory rides on the first prompt that reaches the model, after /cost and after /clear", async () => {
    const project = join(root, 'local-record')
    await writeTree(project, { 'CLAUDE.md': 'Answer briefly.\n' })
    const c = await conversation([{ reply: 'one' }, { reply: 'two' }], { cwd: project, model: 'claude-sonnet-4-5', mods: [commands(), withOptions(memoryMod, { home, managedPath: false })] })
    try {
      const cost = await c.say('/cost extra')
      await c.say('first')
      const cleared = await c.say('/clear')
      await c.say('second')
      const record = (name: string, args: string, output: string) => [
        expect.stringMatching(/^<local-command-caveat>.*not sent to you as a request.*<\/local-command-caveat>\n$/),
        `<command-name>/${name}</command-name>\n            <command-message>${name}</command-message>\n            <command-args>${args}</command-args>\n`,
        `<local-command-stdout>${output}</local-command-stdout>\n`,
      ]
      const [first, second] = c.server.requests.map((r) => r.body as any)
      expect(first.messages).toHaveLength(2)
      expect(texts(first, 0)).toEqual([...record('cost', 'extra', cost.result as string)])
      expect(texts(first, 1)).toEqual(['first', expect.stringContaining('Answer briefly.')])
      expect(second.messages).toHaveLength(2)
      expect(texts(second, 0)).toEqual(record('clear', '', cleared.result as string))
      expect(texts(second, 1)).toEqual(['second', expect.stringContaining('Answer briefly.')])
    } finally {
      await c.end()
    }
  })

  it('/reset and /new are /clear by other names: a new conversation, no model call', async () => {
    const c = await conversation([{ reply: 'one' }, { reply: 'two' }], { cwd, model: 'claude-sonnet-4-5', mods: [commands()] })
    try {
      const first = await c.say('first')
      const reset = await c.say('/reset')
      expect(reset.result).toMatch(/^Started a new conversation/)
      expect(reset.session_id).not.toBe(first.session_id)
      const renewed = await c.say('/new')
      expect(renewed.session_id).not.toBe(reset.session_id)
      expect(c.server.requests).toHaveLength(1)
    } finally {
      await c.end()
    }
  })

  it('/status names the version, session, folder, model and MCP servers, without a model call', async () => {
    const run = await runScript([], '/status', { cwd, model: 'claude-sonnet-4-5', mods: [commands()] })
    expect(run.requests).toHaveLength(0)
    expect((run.result.result as string).split('\n')).toEqual([
      expect.stringMatching(/^modloop \d+\.\d+\.\d+/), `Session:         ${run.result.session_id}`, `Directory:       ${cwd}`,
      'Model:           claude-sonnet-4-5', 'MCP servers:     none',
    ])
  })

  it('a permission deny refuses the whole command, with no model call; a slow !`cmd` is stopped at the timeout', async () => {
    const guard = defineMod({ name: 'guard', register: (on) => on('tool.check', (_$, e, next) => ((e.input as any).command?.startsWith('echo line') ? { decision: 'deny', reason: 'no echo' } : next(e))) })
    const run = await runScript([{ reply: 'ok' }], '/git:status foo', { cwd, mods: [commands(), guard] })
    expect(run.requests).toHaveLength(0)
    expect(run.result).toMatchObject({ is_error: true, result: '/git:status: the shell command `echo line-form foo` it runs was not allowed: no echo.' })
    const out = await expandShell('!`sleep 60; echo late`', { cwd, timeoutMs: 200, maxOutputChars: 1000, refuse: async () => undefined })
    expect(out).toBe('[stopped after 200 ms]')
  })

  it('a !`cmd` the permission rules would ask about is refused (spec §6.2: through the permission check), unless the command\'s allowed-tools grant it; read-only ones run', async () => {
    const project = join(root, 'shell-lines')
    await writeTree(project, {
      '.claude/commands/make.md': 'Made: !`touch made.txt && echo yes`\nStatus: !`ls`\n',
      '.claude/commands/granted.md': '---\nallowed-tools: Bash(touch:*)\n---\nMade: !`touch granted.txt`\n',
      '.claude/skills/sneaky/SKILL.md': '---\ndescription: A skill with a shell line\n---\nContext: !`touch sneaky.txt`\n',
    })
    const perms = withOptions(permissionsMod, { home, trustStore: join(root, 'trusted-lines.json'), managedDir: false })
    const refused = await runScript([{ reply: 'ok' }], '/make', { cwd: project, trustWorkspace: true, mods: [commands(), perms, bashMod] })
    expect(refused.requests).toHaveLength(0)
    expect(refused.result.is_error).toBe(true)
    expect(refused.result.result).toContain('/make: the shell command `touch made.txt && echo yes` it runs was not allowed')
    expect(refused.result.result).toContain('allowed-tools: Bash(touch:*)')
    expect(existsSync(join(project, 'made.txt'))).toBe(false)
    // Granted by the command's own allowed-tools (in a trusted workspace), it runs.
    const granted = await runScript([{ reply: 'ok' }], '/granted', { cwd: project, trustWorkspace: true, mods: [commands(), perms, bashMod] })
    expect(granted.result.is_error).toBe(false)
    expect(existsSync(join(project, 'granted.txt'))).toBe(true)
    // A skill the model runs is refused to the model, its line not run.
    const skill = await runScript([
      { reply: [{ tool_use: { id: 'toolu_skill', name: 'Skill', input: { skill: 'sneaky' } } }] },
      { reply: 'done' },
    ], 'go', { cwd: project, trustWorkspace: true, mods: [commands(), perms, bashMod] })
    expect(JSON.stringify(skill.requests[1]!.body.messages.at(-1))).toContain('The skill \\"sneaky\\" did not run: the shell command `touch sneaky.txt` it runs was not allowed')
    expect(existsSync(join(project, 'sneaky.txt'))).toBe(false)
  })
})

describe("the settings' skillOverrides", () => {
  it('lists a name-only skill by name alone, keeps user-invocable-only and off ones from the model, and off from /name', async () => {
    const dir = join(root, 'overrides')
    const skill = (name: string) => [`.claude/skills/${name}/SKILL.md`, `---\ndescription: The ${name} skill\n---\nBody of ${name}.\n`]
    await writeTree(dir, Object.fromEntries(['alpha', 'beta', 'gamma', 'delta'].map(skill)))
    const settings = { skillOverrides: { beta: 'name-only', gamma: 'user-invocable-only', delta: 'off' } }
    const call = (name: string) => ({ reply: [{ tool_use: { id: `toolu_${name}`, name: 'Skill', input: { skill: name } } }] })
    const run = await runScript([call('gamma'), call('delta'), { reply: 'done' }], 'go', { cwd: dir, settings, mods: [commands()] })
    const system = systemText(run.requests[0]!.body)
    expect(system).toContain('- alpha: The alpha skill\n- beta\n')
    expect(system).not.toMatch(/- (gamma|delta)/)
    for (const [i, name] of [[1, 'gamma'], [2, 'delta']] as const) {
      expect(JSON.stringify(run.requests[i]!.body.messages.at(-1))).toContain(`The skill \\"${name}\\" is turned off for the model by the settings' skillOverrides.`)
    }
    expect(bodyText(await runScript([{ reply: 'ok' }], '/gamma', { cwd: dir, settings, mods: [commands()] }))).toContain('Body of gamma.')
    const off = await runScript([{ reply: 'ok' }], '/delta', { cwd: dir, settings, mods: [commands()] })
    expect(off.requests).toHaveLength(0)
    expect(off.result.result).toBe(`/delta is turned off by the settings' skillOverrides ("delta": "off"); remove that entry to run it.`)
  })
})

describe('skills', () => {
  it('lists model-invocable skills in the system prompt and serves them through the Skill tool', async () => {
    const skill = (args?: string, name = 'pdf-tools') => ({ tool_use: { name: 'Skill', input: { skill: name, ...(args ? { args } : {}) } } })
    const run = await runScript([
      { reply: [skill('doc.pdf'), skill('doc.pdf'), skill(undefined, 'secret')] },
      { reply: 'done' },
    ], 'convert the pdf', { cwd, mods: [commands()] })
    const system = systemText(run.requests[0]!.body)
    expect(system).toContain('# Skills\n')
    expect(system).toContain('\n- pdf-tools: Work with PDF files when a PDF is involved')
    expect(system).not.toContain('secret')
    expect(run.requests[0]!.body.tools.map((t: any) => t.name)).toContain('Skill')
    // The results say the skill launches; its text follows them (spec loop-and-sdk §6.3).
    const [first, again, secret, text, note] = run.requests[1]!.body.messages[2].content
    const dir = `${cwd}/.claude/skills/pdf`
    expect([first.content, again.content]).toEqual(['Launching skill: pdf-tools', 'Launching skill: pdf-tools'])
    expect(secret).toMatchObject({ is_error: true, content: 'The skill "secret" is run only by the user, as /secret.' })
    expect(text).toEqual({ type: 'text', text: `Base directory for this skill: ${dir}\n\nUse pdftotext. Dir: ${dir}. Args: doc.pdf` })
    expect(note.text).toContain('already loaded')
    expect(run.messages.filter((m: any) => m.type === 'user' && m.isSynthetic).map((m: any) => m.message.content[0].text)).toEqual([text.text, note.text])
  })

  it('custom commands are merged into skills: listed after them and run by the Skill tool, unless disable-model-invocation', async () => {
    const dir = await tempDir('commands-merged')
    try {
      await writeTree(dir, {
        '.claude/commands/greet.md': '---\ndescription: Greet someone\n---\nHello $ARGUMENTS.\n',
        '.claude/commands/ns/deep.md': 'Namespaced body\n',
        '.claude/commands/manual.md': '---\ndescription: Only typed\ndisable-model-invocation: true\n---\nManual.\n',
        '.claude/skills/tool/SKILL.md': '---\ndescription: A skill\n---\nSkill body.\n',
      })
      const skill = (name: string, args?: string) => ({ tool_use: { name: 'Skill', input: { skill: name, ...(args ? { args } : {}) } } })
      const run = await runScript([{ reply: [skill('greet', 'zed'), skill('manual')] }, { reply: 'done' }], 'hi', { cwd: dir, mods: [commands()] })
      const listing = systemText(run.requests[0]!.body).split('# Skills\n')[1]!.split('\n').filter((l) => l.startsWith('- '))
      expect(listing).toEqual(['- tool: A skill', '- greet: Greet someone', '- ns:deep: Namespaced body', '- user-cmd: From home'])
      const [greet, manual, text] = run.requests[1]!.body.messages[2].content
      expect(greet.content).toBe('Launching skill: greet')
      expect(text.text).toBe('Hello zed.')
      expect(manual).toMatchObject({ is_error: true, content: 'The skill "manual" is run only by the user, as /manual.' })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('an @file in a skill the model runs is attached before its text', async () => {
    const run = await runScript([{ reply: [{ tool_use: { name: 'Skill', input: { skill: 'git:status', args: 'x' } } }] }, { reply: 'done' }], 'hi', { cwd, mods: [commands(), mentionsMod] })
    const [result, file, text] = run.requests[1]!.body.messages[2].content
    expect(result.content).toBe('Launching skill: git:status')
    expect(file.text).toMatch(/^<system-reminder>\n[^]*Notes!/)
    expect(file.text).toContain(`${cwd}/notes.md`)
    expect(text.text).toContain('See @notes.md')
  })

  it('a context: fork skill runs as a subagent of its agent type; the model gets its report, not the instructions', async () => {
    const dir = await tempDir('commands-fork')
    try {
      await writeTree(dir, {
        '.claude/skills/sum/SKILL.md': '---\ndescription: Summarize the notes\ncontext: fork\nagent: reader\n---\nSummarize the notes. Focus: $ARGUMENTS\n',
        '.claude/agents/reader.md': '---\nname: reader\ndescription: Reads\ntools: Read\n---\nYou read notes.\n',
      })
      const task = `Base directory for this skill: ${dir}/.claude/skills/sum\n\nSummarize the notes. Focus: todos`
      const run = await runScript([
        { reply: [{ tool_use: { id: 'toolu_skill', name: 'Skill', input: { skill: 'sum', args: 'todos' } } }] },
        { reply: 'SUB: three todos', when: { firstUserText: 'Focus: todos' } },
        { reply: 'done', expect: { lastUserText: 'SUB: three todos' } },
      ], 'hi', { cwd: dir, mods: [commands(), agentMod, 'read', 'glob'], forwardSubagentText: true })
      expect(run.error).toBeUndefined()
      // The subagent's first message is the rendered skill; it is of the skill's agent type (its tools, its prompt).
      const sub = run.requests.find((r) => JSON.stringify(r.body.messages[0]).includes('Focus: todos'))!
      expect(JSON.stringify(sub.body.messages[0])).toContain(JSON.stringify(task).slice(1, -1))
      expect(sub.body.tools.map((t: any) => t.name)).toEqual(['Read'])
      expect(systemText(sub.body)).toContain('You read notes.')
      const last = run.requests.at(-1)!.body.messages.at(-1).content
      expect(last).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_skill', content: 'Skill "sum" completed (forked execution).\n\nResult:\nSUB: three todos' })])
      expect(run.messages.filter((m: any) => m.type === 'system' && m.subtype === 'task_started')).toEqual([])
      // Its answer reaches the stream under the Skill call (its text, as a subagent's, when asked for).
      expect(run.messages.some((m: any) => m.parent_tool_use_id === 'toolu_skill')).toBe(true)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('a skill runs as /name too; without skills there is no Skill tool and no listing', async () => {
    const run = await runScript([{ reply: 'ok' }], '/pdf-tools a.pdf', { cwd, mods: [commands()] })
    expect(bodyText(run)).toBe(`Base directory for this skill: ${cwd}/.claude/skills/pdf\n\nUse pdftotext. Dir: ${cwd}/.claude/skills/pdf. Args: a.pdf`)
    const none = await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [commands({ skills: false })] })
    expect(systemText(none.requests[0]!.body)).not.toContain('# Skills')
    expect(none.requests[0]!.body.tools.map((t: any) => t.name)).not.toContain('Skill')
  })

  it('a skill whose frontmatter renames it still runs by its directory name, typed or through the Skill tool', async () => {
    const typed = await runScript([{ reply: 'ok' }], '/pdf a.pdf', { cwd, mods: [commands()] })
    expect(bodyText(typed)).toContain('Use pdftotext.')
    const called = await runScript([{ reply: [{ tool_use: { name: 'Skill', input: { skill: 'pdf' } } }] }, { reply: 'done' }], 'hi', { cwd, mods: [commands()] })
    expect(called.requests[1]!.body.messages[2].content[0]).toMatchObject({ content: 'Launching skill: pdf' })
  })

  it('a skill that is not user-invocable, typed as /name, is answered without a model call and stays the model\'s', async () => {
    const run = await runScript([], '/model-only', { cwd, mods: [commands()] })
    expect(run.requests).toHaveLength(0)
    expect(run.result).toMatchObject({ subtype: 'success', is_error: false, result: expect.stringContaining('user-invocable: false') })
    const listed = await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [commands()] })
    expect(systemText(listed.requests[0]!.body)).toContain('- model-only: For the model')
  })

  it("the listing's budget is 1% of the model's context window, or SLASH_COMMAND_TOOL_CHAR_BUDGET, as in Claude Code", async () => {
    const dir = await tempDir('commands-budget')
    await writeTree(dir, Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`.claude/skills/s${i}/SKILL.md`, `---\ndescription: ${'Does a thing. '.repeat(40)}\n---\nBody\n`])))
    const described = async (model: string, env: Record<string, string> = {}) => {
      const run = await runScript([{ reply: 'ok' }], 'hi', { cwd: dir, model, env, mods: [commands()] })
      return systemText(run.requests[0]!.body).split('\n').filter((l) => /^- s\d+: Does/.test(l)).length
    }
    // 30 descriptions of ~560 characters: all fit 1% of a 1M window, not 1% of a 200K one.
    expect(await described('claude-opus-5-5')).toBe(30)
    expect(await described('claude-sonnet-4-5')).toBeLessThan(15)
    expect(await described('claude-opus-5-5', { SLASH_COMMAND_TOOL_CHAR_BUDGET: '2000' })).toBeLessThan(4)
  })

  it('keeps the listing within its budget: long descriptions are cut, then skills named, then counted', () => {
    const make = (i: number, description: string) => ({
      name: `skill-${i}`, kind: 'skill' as const, source: 'project' as const, description, modelInvocable: true, userInvocable: true, body: '', file: '', bodyLine: 1,
    })
    const listing = skillListing([make(1, 'x'.repeat(3000)), ...Array.from({ length: 200 }, (_, i) => make(i + 2, 'A useful skill. '.repeat(10)))], { maxDescriptionChars: 1536, totalChars: 8000 })!
    expect(listing.length).toBeLessThanOrEqual(8000 + 200)
    expect(listing).toContain(`- skill-1: ${'x'.repeat(1533)}...\n`)
    expect(listing).toMatch(/\n- skill-\d+\n/)
    expect(listing).toMatch(/\(\d+ more skills not listed for space; the Skill tool still runs them by name\.\)$/)
  })
})

describe('frontmatter allowed-tools and model apply while the command or skill runs', () => {
  let project: string
  beforeAll(async () => {
    project = join(root, 'granting')
    await writeTree(project, {
      '.claude/commands/grant.md': '---\ndescription: Print the grant\nallowed-tools: Bash(printf granted*)\nmodel: claude-haiku-4-5\n---\nPrint it.\n',
      '.claude/skills/printer/SKILL.md': '---\ndescription: Prints things\nallowed-tools: [Bash(printf skill*)]\nmodel: claude-opus-4-6\n---\nPrint with printf.\n',
    })
  })
  const perms = () => withOptions(permissionsMod, { home, trustStore: join(root, 'trusted.json'), managedDir: false })
  const bash = (command: string) => ({ reply: [{ tool_use: { name: 'Bash', input: { command } } }] })
  const lastResult = (body: any) => body.messages.at(-1).content.find((b: any) => b.type === 'tool_result')

  it('a command grants its tools until the next prompt, headless in dontAsk, and its turn uses its model', async () => {
    const c = await conversation([bash('printf granted'), { reply: 'done' }, bash('printf granted'), { reply: 'refused' }], {
      cwd: project, model: 'claude-sonnet-4-5', permissionMode: 'dontAsk', trustWorkspace: true, mods: [commands(), bashMod, perms()],
    })
    try {
      await c.say('/grant')
      await c.say('once more, without the command')
      const bodies = c.server.requests.map((r) => r.body)
      expect(bodies.map((b) => b.model)).toEqual(['claude-haiku-4-5', 'claude-haiku-4-5', 'claude-sonnet-4-5', 'claude-sonnet-4-5'])
      expect(lastResult(bodies[1])).toMatchObject({ content: 'granted' })
      expect(lastResult(bodies[3])).toMatchObject({ is_error: true, content: expect.stringMatching(/dontAsk/) })
    } finally {
      await c.end()
    }
  })

  it('the Skill tool sets the invocation too: its grant and model hold for the rest of the turn', async () => {
    const run = await runScript([
      { reply: [{ tool_use: { name: 'Skill', input: { skill: 'printer' } } }] },
      bash('printf skill-ran'),
      { reply: 'done' },
    ], 'print something', { cwd: project, model: 'claude-sonnet-4-5', trustWorkspace: true, allowedTools: ['Skill(printer)'], mods: [commands(), bashMod, perms()] })
    expect(run.requests.map((r) => r.body.model)).toEqual(['claude-sonnet-4-5', 'claude-opus-4-6', 'claude-opus-4-6'])
    expect(lastResult(run.requests[2]!.body)).toMatchObject({ content: 'skill-ran' })
  })

  it("a skill a subagent runs grants that subagent's calls only, and leaves the parent's model alone", async () => {
    const run = await runScript([
      { reply: [{ tool_use: { name: 'Agent', input: { description: 'print', prompt: 'print something' } } }] },
      { reply: [{ tool_use: { name: 'Skill', input: { skill: 'printer' } } }] },
      bash('printf skill-sub'),
      { reply: 'sub done' },
      bash('printf skill-main'),
      { reply: 'done' },
    ], 'go', { cwd: project, model: 'claude-sonnet-4-5', trustWorkspace: true, allowedTools: ['Skill(printer)'], mods: [commands(), bashMod, perms(), agentMod] })
    expect(run.requests.map((r) => r.body.model)).toEqual(Array(6).fill('claude-sonnet-4-5'))
    expect(lastResult(run.requests[3]!.body)).toMatchObject({ content: 'skill-sub' })
    expect(lastResult(run.requests[5]!.body)).toMatchObject({ is_error: true, content: expect.stringMatching(/requires approval/) })
  })

  it('in an untrusted workspace a project command grants nothing, and says so', async () => {
    const warnings: string[] = []
    const run = await runScript([bash('printf granted'), { reply: 'done' }], '/grant', { cwd: project, mods: [commands(), bashMod, perms()], log: (l) => warnings.push(l) })
    expect(lastResult(run.requests[1]!.body)).toMatchObject({ is_error: true, content: expect.stringMatching(/requires approval/) })
    expect(warnings.join('\n')).toContain(`the allowed-tools of /grant (${join(project, '.claude/commands/grant.md')}) are not granted: this workspace is not trusted`)
  })
})
