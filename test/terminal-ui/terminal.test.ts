import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hasTmux, project, send, tmuxSuite } from './suite.js'

const suite = tmuxSuite(import.meta.filename)
const open = suite.open
const server = () => suite.state.server!

const lastUserText = (body: Record<string, unknown>) => JSON.stringify((body.messages as unknown[]).at(-1))

describe.runIf(hasTmux)('the interactive terminal (tmux, 80×24)', () => {
  it('renders a turn with tools: todo list, a permission ask answered "always", an Edit diff, markdown', async () => {
    const where = await project()
    const file = join(where.cwd, 'notes.txt')
    const p = await open({
      steps: [
        { reply: [{ thinking: 'Plan first.' }, { text: 'Planning the change.' }, { tool_use: { name: 'TodoWrite', input: { todos: [{ content: 'Write notes', status: 'in_progress', activeForm: 'Writing notes' }, { content: 'Fix notes', status: 'pending', activeForm: 'Fixing notes' }] } } }] },
        { reply: [{ tool_use: { name: 'Write', input: { file_path: file, content: 'alpha\nbeta\n' } } }] },
        { reply: [{ tool_use: { name: 'Edit', input: { file_path: file, old_string: 'beta', new_string: 'gamma' } } }] },
        { reply: '## Finished\n\nChanged:\n\n- notes.txt\n\n```\ngamma\n```\n', chunkDelayMs: 5 },
      ],
      // TodoWrite, the legacy checklist: the task list turned off, the checklist opted in on the default model.
    }, where, { env: { CLAUDE_CODE_ENABLE_TASKS: '0', CLAUDE_CODE_ENABLE_TODO_TOOLS: '1' } })
    await send(p, 'write the notes')
    await p.waitFor('✔ TodoWrite(2 tasks)')
    await p.waitFor('◐ Write notes')
    await p.waitFor('Allow Write(')
    await p.waitFor('Yes, always: allow Edit')
    await p.keys('2')
    await p.waitFor('✔ Edit(notes.txt) · ok')
    await p.waitFor('Finished')
    const screen = await p.waitFor(/^  gamma/m)
    expect(screen).toMatch(/✔ Write\(notes\.txt\) · ok · \d/)
    expect(screen).toMatch(/- beta/)
    expect(screen).toMatch(/\+ gamma/)
    expect(screen).toMatch(/∴ Thought for (<1s|\d+s) \(1 line\) · ctrl\+o to expand/)
    expect(screen).toMatch(/\* notes\.txt/)
    expect(await readFile(file, 'utf8')).toBe('alpha\ngamma\n')
    expect(await readFile(join(where.cwd, '.claude/settings.local.json'), 'utf8')).toContain('"Edit"')
    await p.waitFor(/\$0\.\d{4} · \d+% context/)
    await p.save('tools-and-permission')
  })

  it('Esc interrupts a streaming answer and the next prompt works; a message typed during a tool shows queued, then joins the turn', async () => {
    const where = await project()
    const long = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ')
    const p = await open({
      steps: [
        { reply: long, chunkDelayMs: 150 },
        { reply: 'fresh answer' },
        { reply: [{ tool_use: { name: 'Bash', input: { command: 'sleep 1; echo slept' } } }] },
        { reply: 'saw both' },
      ],
    }, where, { args: ['--allowedTools', 'Bash(sleep *)'] })
    await send(p, 'talk a lot')
    await p.waitFor('esc to interrupt')
    await p.keys('Escape')
    await p.waitFor('Interrupted. What should modloop do instead?')
    await send(p, 'again')
    await p.waitFor('fresh answer')
    await send(p, 'run the slow thing')
    await p.waitFor(/Bash\(sleep 1; echo slept\) \d/)
    await send(p, 'also this')
    // Shown queued above the prompt while the tool runs, not yet in the scrollback.
    const queued = await p.waitFor('› also this  (queued)')
    expect(queued.indexOf('› also this  (queued)')).toBeGreaterThan(queued.indexOf('Bash(sleep 1; echo slept)'))
    await p.waitFor('saw both')
    // Once it joined the turn, it stands after the tool round it joined, unmarked.
    const screen = await p.waitFor(/✔ Bash\(sleep 1; echo slept\) · ok · .*\n.*slept\n› also this\nsaw both\n/)
    expect(screen).not.toContain('(queued)')
    // The typed message joined the running turn at its tool round: the next request carries it.
    expect(lastUserText(server().requests.at(-1)!.body)).toContain('also this')
    expect(server().requests.length).toBe(4)
    await p.save('interrupt-and-queue')
  })

  it('slash commands: completion, /help from every mod, /mods, unknown commands; NO_COLOR', async () => {
    const where = await project()
    const p = await open({ steps: [{ reply: 'plain answer' }] }, where, { env: { NO_COLOR: '1' } })
    await p.type('/hoo')
    await p.waitFor(/❯ \/hooks +\S/)
    await p.keys('Tab')
    await p.waitFor('› /hooks\n')
    await p.keys('Enter')
    await p.waitFor('No settings hooks apply here.')
    // Past the first five: ↑ from the top wraps to the last command, and the menu scrolls to it.
    await p.type('/')
    await p.waitFor('❯ /add-dir')
    await p.keys('Up')
    await p.waitFor('❯ /usage')
    await p.keys('C-u')
    // ↓ moves the highlight; Enter runs the highlighted command, not the half-typed name.
    await p.type('/co')
    await p.waitFor('❯ /compact')
    await p.keys('Down')
    await p.waitFor('❯ /config')
    await p.keys('Down')
    await p.waitFor('❯ /context')
    await p.keys('Enter')
    await p.waitFor(/Context: .* tokens \(\d+%\)/)
    await send(p, '/help')
    const help = await p.waitFor('Ctrl+C twice or Ctrl+D exit')
    expect(help).toContain('/resume')
    await send(p, '/mods')
    await p.waitFor(/terminal-ui\s+loaded/)
    await send(p, '/nosuch')
    await p.waitFor('Unknown command: /nosuch')
    await send(p, 'hello after')
    await p.waitFor('plain answer')
    const stdout = await p.tmux('capture-pane', '-e', '-p', '-t', p.name)
    expect(stdout).not.toMatch(/\u001b\[3\dm/)
    await p.save('commands-no-color')
  })

  it('asks to trust a folder whose project settings only widen permissions; the allow rule holds once trusted', async () => {
    const where = await project({ '.claude/settings.json': JSON.stringify({ permissions: { allow: ['Bash(printf widened)'] } }) })
    const p = await open({ steps: [{ reply: [{ tool_use: { name: 'Bash', input: { command: 'printf widened' } } }] }, { reply: 'ran it' }] }, where, { waitFor: 'Do you trust the files in' })
    await p.waitFor('permissions that widen access in .claude/settings.json (allow rules)')
    await p.keys('1')
    // The session's status line: the trust question is gone and the session's own input is up.
    await p.waitFor('% context')
    expect(await readFile(join(where.home, 'trusted.json'), 'utf8')).toContain(where.cwd.split('/').at(-1)!)
    await send(p, 'run it')
    await p.waitFor('ran it')
    expect(lastUserText(server().requests.at(-1)!.body)).toContain('widened')
  })

  it('asks to trust a folder with project hooks and to approve the hooks, then /resume picks an earlier session', async () => {
    const where = await project({ '.claude/settings.json': JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } }) })
    let p = await open({ steps: [{ reply: 'first session answer' }] }, where, { waitFor: 'Do you trust the files in' })
    await p.keys('1')
    await p.waitFor('Stop: true')
    await p.keys('1')
    await p.waitFor('Approved 1 project hook')
    await p.waitFor(/^›/m)
    expect(await readFile(join(where.home, 'trusted.json'), 'utf8')).toContain(where.cwd.split('/').at(-1)!)
    await send(p, 'remember the word pelican')
    await p.waitFor('first session answer')
    await p.keys('C-d')
    await p.waitFor('[exited 0]')
    await server().close()

    p = await open({ steps: [{ reply: 'resumed answer', expect: { lastUserText: 'what was the word?' } }] }, where)
    await send(p, '/resume')
    await p.waitFor('Resume which session?')
    expect(await p.waitFor('remember the word pelican')).toMatch(/remember the word pelican · 1 turn · /)
    await p.keys('Enter')
    const resumed = await p.waitFor('Resumed session')
    expect(resumed).not.toContain('system-reminder')
    await send(p, 'what was the word?')
    await p.waitFor('resumed answer')
    expect(JSON.stringify(server().requests.at(-1)!.body.messages)).toContain('pelican')
    await p.save('trust-and-resume')
    await p.keys('C-c')
    await p.keys('C-c')
    await p.waitFor('[exited 0]')
  })
})
