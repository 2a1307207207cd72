import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hasTmux, project, send, tmuxSuite } from './suite.js'

const suite = tmuxSuite(import.meta.filename)
const server = () => suite.state.server!
const lastUserText = (body: Record<string, unknown>) => JSON.stringify((body.messages as unknown[]).at(-1))
/** The pane's last rows that are not blank: the live region at the bottom. */
const bottom = (screen: string, n: number) => screen.trimEnd().split('\n').slice(-n)

describe.runIf(hasTmux)('keys of the interactive terminal (tmux, 80×24)', () => {
  it('Shift+Tab cycles the permission mode in the status line, and the next tool call follows it', async () => {
    const where = await project()
    const a = join(where.cwd, 'a.txt')
    const b = join(where.cwd, 'b.txt')
    const p = await suite.open({
      steps: [
        { reply: [{ tool_use: { name: 'Write', input: { file_path: a, content: 'A\n' } } }] },
        { reply: 'wrote a' },
        { reply: [{ tool_use: { name: 'Write', input: { file_path: b, content: 'B\n' } } }] },
        { reply: 'wrote b' },
      ],
    }, where)
    await p.waitFor('⏵ default')
    await p.keys('BTab')
    await p.waitFor('⏵ accept edits')
    await send(p, 'write a')
    // Accepting edits: the Write runs without asking.
    await p.waitFor(/✔ Write\(.*a\.txt\) · ok/)
    await p.waitFor('wrote a')
    expect(await readFile(a, 'utf8')).toBe('A\n')
    await p.keys('BTab')
    await p.waitFor('⏵ plan mode')
    await p.keys('BTab')
    await p.waitFor('⏵ default')
    await send(p, 'write b')
    // Back in default mode the next Write asks.
    await p.waitFor('Allow Write(')
    await p.keys('1')
    await p.waitFor('wrote b')
    expect(await readFile(b, 'utf8')).toBe('B\n')
    await p.save('permission-modes')
  })

  it('Alt+Enter sends with priority now: the running turn is interrupted and a fresh one takes the message', async () => {
    const where = await project()
    const long = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ')
    const p = await suite.open({ steps: [{ reply: long, chunkDelayMs: 100 }, { reply: 'did the new thing' }] }, where)
    await send(p, 'talk a lot')
    await p.waitFor('esc to interrupt')
    await p.waitFor('word3')
    await p.type('do this instead')
    await p.keys('M-Enter')
    await p.waitFor('did the new thing')
    const screen = await p.waitFor(/^› do this instead$/m)
    expect(screen).toContain('Interrupted')
    expect(screen).not.toContain('word79')
    expect(screen).not.toContain('(interrupting)')
    expect(server().requests.length).toBe(2)
    expect(lastUserText(server().requests[1]!.body)).toContain('do this instead')
    await p.save('send-now')
  })

  it('Ctrl+C once only warns, twice exits', async () => {
    const where = await project()
    const p = await suite.open({ steps: [{ reply: 'still here' }] }, where)
    await p.type('some draft')
    await p.keys('C-c')
    // The first Ctrl+C clears the draft and warns; the session goes on once the warning lapses.
    await p.waitFor('Press Ctrl+C again to exit')
    await p.waitFor('⏵ default', 4000)
    expect(bottom(await p.capture(), 4)[1]).toBe('›')
    await send(p, 'are you there')
    await p.waitFor('still here')
    await p.keys('C-c')
    await p.waitFor('Press Ctrl+C again to exit')
    await p.keys('C-c')
    await p.waitFor('[exited 0]')
  })

  it('a tool that prints a lot, with escapes and carriage returns, leaves the screen and the prompt intact', async () => {
    const where = await project()
    const command = "seq 1 3000; printf '\\033[2J\\033[H\\033[31mred\\r\\n10%%\\r99%%\\n'; head -c 600 /dev/zero | tr '\\0' x"
    const p = await suite.open({
      steps: [{ reply: [{ tool_use: { name: 'Bash', input: { command } } }] }, { reply: 'printed plenty' }],
    }, where, { args: ['--allowedTools', 'Bash'] })
    await send(p, 'print a lot')
    await p.waitFor('printed plenty')
    // The long command is cut to fit (its title ends in …), the outcome and time kept.
    const screen = await p.waitFor(/✔ Bash\(.*… · ok · /)
    // Nothing the tool printed cleared the screen: the banner is still on it.
    expect(screen).toContain('Ctrl+D exits')
    expect(screen).toMatch(/⎿ {2}1\n {5}2\n {5}3\n {5}4\n {5}… \+\d{4} lines/)
    const [top, prompt, under, status] = bottom(screen, 4)
    expect(top).toMatch(/^─{79}$/)
    expect(prompt).toBe('›')
    expect(under).toMatch(/^─{79}$/)
    expect(status).toMatch(/· ⏵ default · \$\d/)
    for (const row of screen.split('\n')) expect(row.length).toBeLessThanOrEqual(80)
    await p.save('big-output')
  })

  it('/compact runs through the compaction mod and shows its boundary; bold in list items renders', async () => {
    const where = await project()
    const p = await suite.open({
      steps: [
        { reply: 'Done:\n\n- **first** point\n- second `code`\n' },
        { reply: 'SUMMARY OF THE TALK' },
        { reply: 'after compact' },
      ],
    }, where)
    await send(p, 'hello')
    await p.waitFor('second code')
    const colored = await p.tmux('capture-pane', '-e', '-p', '-t', p.name)
    expect(colored).toMatch(/\u001b\[1mfirst\u001b\[(22|0)?m/)
    expect(colored).not.toContain('**first**')
    await send(p, '/compact')
    await p.waitFor(/─── Conversation compacted · on request · [\d,]+ → [\d,]+ tokens · \d/)
    await p.waitFor('Compacted the conversation')
    await send(p, 'and now?')
    await p.waitFor('after compact')
    expect(JSON.stringify(server().requests.at(-1)!.body.messages)).toContain('SUMMARY OF THE TALK')
    await p.save('compact')
  })
})
