import { existsSync, readdirSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { historyFile } from '../../mods/terminal-ui/history.js'
import { encodeCwd } from '../../mods/transcripts/store/paths.js'
import { readLines } from '../sessions/helpers.js'
import { hasTmux, project, send, tmuxSuite } from './suite.js'

const suite = tmuxSuite(import.meta.filename)
const server = () => suite.state.server!
const lastMessage = (i: number) => (server().requests[i]!.body.messages as { content: unknown }[]).at(-1)!
const toolResult = (i: number) => (lastMessage(i).content as { type: string; content: unknown; is_error?: boolean }[]).find((b) => b.type === 'tool_result')!

describe.runIf(hasTmux)('the prompt and tool calls in the interactive terminal (tmux, 80×24)', () => {
  it('keeps the prompt history of the project: after Ctrl+D and a new start, Up brings the last prompt back; the transcript says cli', async () => {
    const where = await project()
    let p = await suite.open({ steps: [{ reply: 'noted' }] }, where)
    await send(p, 'remember this prompt')
    await p.waitFor('noted')
    await p.keys('C-d')
    await p.waitFor('[exited 0]')
    const dir = join(where.home, 'projects', encodeCwd(where.cwd))
    const transcript = readdirSync(dir).find((f) => f.endsWith('.jsonl'))!
    expect(new Set(readLines(join(dir, transcript)).map((l) => l.entrypoint))).toEqual(new Set(['cli']))

    p = await suite.open({ steps: [] }, where)
    await p.keys('Up')
    await p.waitFor(/^› remember this prompt$/m)
  })

  it('with CLAUDE_CODE_SKIP_PROMPT_HISTORY in the settings env, writes no prompt history, as no transcript', async () => {
    const where = await project()
    await mkdir(join(where.home, '.claude'), { recursive: true })
    await writeFile(join(where.home, '.claude', 'settings.json'), JSON.stringify({ env: { CLAUDE_CODE_SKIP_PROMPT_HISTORY: '1' } }))
    const p = await suite.open({ steps: [{ reply: 'noted' }] }, where)
    await send(p, 'forget this prompt')
    await p.waitFor('noted')
    await p.keys('C-d')
    await p.waitFor('[exited 0]')
    expect(existsSync(historyFile(where.cwd, { MODLOOP_HOME: where.home }))).toBe(false)
    // Nothing of the session is kept; the project's auto memory folder (made at start, empty) is no record of it.
    const transcripts = join(where.home, 'projects', encodeCwd(where.cwd))
    expect(existsSync(transcripts) ? readdirSync(transcripts).filter((f) => f !== 'memory') : []).toEqual([])
  })

  it('a backslash before Enter starts a new line; the prompt is sent with it', async () => {
    const where = await project()
    const p = await suite.open({ steps: [{ reply: 'two lines seen' }] }, where)
    await p.type('first line\\')
    await p.keys('Enter')
    await p.type('second line')
    await p.waitFor(/^› first line\n {2}second line$/m)
    await p.keys('Enter')
    await p.waitFor('two lines seen')
    expect(JSON.stringify(lastMessage(0))).toContain(JSON.stringify('first line\nsecond line'))
  })

  it('denies a call with a typed reason the model reads; a failing command shows its error outcome', async () => {
    const where = await project()
    const p = await suite.open({
      steps: [
        { reply: [{ tool_use: { name: 'Bash', input: { command: 'touch should-not-exist.txt' } } }] },
        { reply: [{ tool_use: { name: 'Bash', input: { command: 'cat /no/such/file' } } }] },
        { reply: 'understood' },
      ],
    }, where, { args: ['--allowedTools', 'Bash(cat *)'] })
    await send(p, 'run it')
    await p.waitFor('No, and tell modloop why')
    await p.keys('3')
    await p.waitFor('Enter to send · Esc to go back')
    await send(p, 'use the other script')
    await p.waitFor(/⊘ Bash\(touch should-not-exist\.txt\) · denied · \d/)
    const screen = await p.waitFor(/✖ Bash\(cat \/no\/such\/file\) · error · \d/)
    expect(screen).toMatch(/No such file or directory/)
    await p.waitFor('understood')
    expect(toolResult(1)).toMatchObject({ is_error: true, content: 'The user denied this Bash call: use the other script' })
    expect(toolResult(2).is_error).toBe(true)
    expect(existsSync(join(where.cwd, 'should-not-exist.txt'))).toBe(false)
  })

  it('Esc while a tool runs stops it: the call shows interrupted, and the next prompt works', async () => {
    const where = await project()
    const p = await suite.open({
      steps: [{ reply: [{ tool_use: { name: 'Bash', input: { command: 'sleep 60' } } }] }, { reply: 'next works' }],
    }, where, { args: ['--allowedTools', 'Bash(sleep *)'] })
    await send(p, 'wait a while')
    await p.waitFor(/Bash\(sleep 60\) \d/)
    // The command would sleep 60 s, past the test's own timeout: the notice arriving at all is Esc at work.
    await p.keys('Escape')
    await p.waitFor('Interrupted. What should modloop do instead?')
    expect(await p.capture()).toMatch(/■ Bash\(sleep 60\) · interrupted · \d/)
    await send(p, 'go on')
    await p.waitFor('next works')
    expect(server().requests).toHaveLength(2)
    expect(JSON.stringify(lastMessage(1))).toContain('go on')
  })

  it('/help lists the commands of other mods; /mods shows a mod the config names but that is missing as a load error', async () => {
    const where = await project({ 'modloop.config.json': JSON.stringify({ extends: 'modloop', mods: ['./missing-mod.ts'] }) })
    const p = await suite.open({ steps: [] }, where, { waitFor: 'Do you trust the files in' })
    await p.keys('1')
    await p.waitFor('Ctrl+D exits')
    await send(p, '/help')
    const help = await p.waitFor('Ctrl+C twice or Ctrl+D exit', 8000, true)
    expect(help).toMatch(/\/compact\s+Summarize the conversation so far/)
    expect(help).toMatch(/\/mcp\s+Show the MCP servers/)
    await send(p, '/mods')
    const mods = await p.waitFor('load errors (1):', 8000, true)
    expect(mods).toMatch(/MODLOOP_ERR_MOD_RESOLVE.*missing-mod/)
  })
})
