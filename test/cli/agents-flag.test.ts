import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-agents-flag-')))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const cli = (args: string[]) => runCli(['-p', 'hi', ...args], { script: [{ reply: 'ok' }], cwd: dir, stdin: '' })
const agentTool = (r: Awaited<ReturnType<typeof cli>>) => (r.requests[0]!.body.tools as { name: string; description: string }[]).find((t) => t.name === 'Agent')!

describe('--agents defines subagents, as Claude Code does', () => {
  it('takes a JSON object: the agent is in init and in the Agent tool', async () => {
    const r = await cli(['--output-format', 'stream-json', '--verbose', '--agents', '{"reviewer":{"description":"Reviews code","prompt":"You review code"}}'])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.out.split('\n')[0]!).agents).toContain('reviewer')
    expect(agentTool(r).description).toContain('- reviewer: Reviews code')
  })

  it('takes the path of a file holding one, relative to the working directory', async () => {
    await writeFile(join(dir, 'agents.json'), '{"fixer":{"description":"Fixes bugs","prompt":"You fix bugs"}}')
    const r = await cli(['--agents', 'agents.json'])
    expect(r.code).toBe(0)
    expect(agentTool(r).description).toContain('- fixer: Fixes bugs')
  })

  it('refuses a definition without its prompt, a missing file, and what is not an object', async () => {
    const noPrompt = await cli(['--agents', '{"x":{"description":"d"}}'])
    expect(noPrompt.code).toBe(1)
    expect(noPrompt.err).toContain('"x": prompt: Invalid input')
    expect((await cli(['--agents', '{"x":{"description":"d","prompt":"p","tools":"Read,Grep"}}'])).err).toContain('"x": tools: Invalid input: expected array')
    const missing = await cli(['--agents', 'nope.json'])
    expect(missing.code).toBe(1)
    expect(missing.err).toContain('cannot be read')
    await writeFile(join(dir, 'list.json'), '[1]')
    expect((await cli(['--agents', 'list.json'])).err).toContain('is not a JSON object')
    expect(noPrompt.requests).toHaveLength(0)
  })
})
