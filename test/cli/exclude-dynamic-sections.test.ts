import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-dynamic-sections-')))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const cli = (args: string[]) => runCli(['-p', 'hi', ...args], { script: [{ reply: 'ok' }], cwd: dir, env: { HOME: dir }, stdin: '' })
const system = (r: Awaited<ReturnType<typeof cli>>) => JSON.stringify(r.requests[0]!.body.system)
const messages = (r: Awaited<ReturnType<typeof cli>>) => JSON.stringify((r.requests[0]!.body as { messages: unknown }).messages)

describe('--exclude-dynamic-system-prompt-sections, as in Claude Code', () => {
  it('moves the environment and the memory path from the system prompt into the first user message', async () => {
    const r = await cli(['--exclude-dynamic-system-prompt-sections'])
    expect(r.code).toBe(0)
    expect(system(r)).not.toContain(dir)
    expect(messages(r)).toContain(`Working directory: ${dir}`)
    expect(messages(r)).toContain('# Memory')
  })

  it('is ignored with --system-prompt, which has no such sections', async () => {
    const r = await cli(['--exclude-dynamic-system-prompt-sections', '--system-prompt', 'Be brief.'])
    expect(r.code).toBe(0)
    expect(system(r)).toContain('Be brief.')
    expect(messages(r)).not.toContain('Working directory:')
  })
})
