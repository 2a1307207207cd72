import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OnElicitation } from '../../runtime/sdk-options.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { cmd, hooksMod, makeBox, writeSettings, type Box } from '../shell-hooks/helpers.js'
import { mcp, resultText, stdio, toolResults } from './helpers.js'

// The Elicitation and ElicitationResult settings hooks around an MCP server's request for the
// user's input (the fixture's `ask` tool reports the answer it got).

let box: Box
beforeAll(async () => { box = await makeBox() })
afterAll(() => box.remove())

const script = [{ reply: [{ tool_use: { name: 'mcp__fixture__ask', input: {} } }] }, { reply: 'done' }]
const said = (event: string, answer: object) => `printf '%s' '${JSON.stringify({ hookSpecificOutput: { hookEventName: event, ...answer } })}'`

async function ask(hooks: Record<string, unknown>, onElicitation?: OnElicitation): Promise<string> {
  await writeSettings(box, hooks as never, join(box.home, '.claude', 'settings.json'))
  const run = await runScript(script, 'go', {
    cwd: box.project, ...(onElicitation ? { onElicitation } : {}), mods: [toolsMod(), hooksMod(box), mcp({ home: box.home, servers: { fixture: stdio() } })],
  })
  return resultText(toolResults(run.requests, 1)[0]!)
}

describe('the Elicitation and ElicitationResult hooks', () => {
  it('an Elicitation hook matching the server answers for the user, who is not asked; its exit 2 declines; one for another server does not run', async () => {
    let asked = 0
    const host: OnElicitation = async () => { asked++; return { action: 'accept', content: { name: 'Ada' } } }
    expect(await ask({ Elicitation: [{ matcher: 'fixture', hooks: [cmd(said('Elicitation', { action: 'accept', content: { name: 'Hook' } }))] }] }, host)).toBe('asked: accept {"name":"Hook"}')
    expect(await ask({ Elicitation: [{ matcher: 'fixture', hooks: [cmd('exit 2')] }] }, host)).toBe('asked: decline')
    expect(asked).toBe(0)
    expect(await ask({ Elicitation: [{ matcher: 'other', hooks: [cmd('exit 2')] }] }, host)).toBe('asked: accept {"name":"Ada"}')
    expect(asked).toBe(1)
  })

  it('an Elicitation hook answers in a run with no one to ask, told the server, its message and the form', async () => {
    const dump = `sh ${join(box.root, 'dump.sh')} ${box.out} elicitation`
    expect(await ask({ Elicitation: [{ hooks: [cmd(dump), cmd(said('Elicitation', { action: 'accept', content: { name: 'Hook' } }))] }] })).toBe('asked: accept {"name":"Hook"}')
    const input = JSON.parse((await readFile(join(box.out, 'elicitation.jsonl'), 'utf8')).trim().split('\n')[0]!)
    expect(input).toMatchObject({
      hook_event_name: 'Elicitation', mcp_server_name: 'fixture', message: 'Your name?', mode: 'form',
      requested_schema: { type: 'object', properties: { name: { type: 'string' } } },
    })
  })

  it('an ElicitationResult hook reads the answer and may replace it; its exit 2 makes it a decline', async () => {
    const host: OnElicitation = async () => ({ action: 'accept', content: { name: 'Ada' } })
    const dump = `sh ${join(box.root, 'dump.sh')} ${box.out} result`
    expect(await ask({ ElicitationResult: [{ matcher: 'fixture', hooks: [cmd(dump), cmd(said('ElicitationResult', { content: { name: 'Bob' } }))] }] }, host)).toBe('asked: accept {"name":"Bob"}')
    const input = JSON.parse((await readFile(join(box.out, 'result.jsonl'), 'utf8')).trim().split('\n')[0]!)
    expect(input).toMatchObject({ hook_event_name: 'ElicitationResult', mcp_server_name: 'fixture', action: 'accept', mode: 'form', content: { name: 'Ada' } })
    expect(input.permission_mode).toBeUndefined()
    expect(await ask({ ElicitationResult: [{ hooks: [cmd('exit 2')] }] }, host)).toBe('asked: decline')
  })
})
