import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-session-name-')))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const cli = (args: string[], reply: string) => runCli(args, { script: [{ reply }], cwd: dir, env: { HOME: dir }, stdin: '' })

describe('-n, --name names the session, as Claude Code does', () => {
  it('init shows the title, and --resume takes the name', async () => {
    const first = await cli(['-p', 'remember 42', '-n', 'my task', '--output-format', 'stream-json', '--verbose'], 'noted')
    expect(first.code).toBe(0)
    expect(JSON.parse(first.out.split('\n')[0]!).title).toBe('my task')
    const again = await cli(['-p', 'what was it', '--resume', 'my task'], 'it was 42')
    expect(again.code).toBe(0)
    const sent = JSON.stringify((again.requests[0]!.body as { messages: unknown[] }).messages)
    expect(sent).toContain('remember 42')
    expect(sent).toContain('what was it')
  })
})
