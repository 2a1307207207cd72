import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'modloop-tool-switches-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const run = (args: string[], env: Record<string, string> = {}) =>
  runCli(['-p', ...args], { script: [{ reply: 'ok' }], cwd: dir, env: { HOME: dir, MODLOOP_HOME: join(dir, 'home'), ...env } })
const toolsOf = (body: any): string[] => (body.tools ?? []).map((t: { name: string }) => t.name)

describe('the switches that take tools away, from the environment or a settings env block', () => {
  it('CLAUDE_CODE_DISABLE_WEB_FETCH offers no WebFetch', async () => {
    const on = await run(['hi'], { CLAUDE_CODE_DISABLE_WEB_FETCH: '1' })
    expect(on.code).toBe(0)
    expect(toolsOf(on.requests[0]!.body)).not.toContain('WebFetch')
    expect(toolsOf(on.requests[0]!.body)).toContain('WebSearch')
  })

  it('CLAUDE_CODE_DISABLE_CRON offers no cron tools and no /loop, which goes to the model as typed; ScheduleWakeup stays', async () => {
    const r = await run(['/loop 5m check the build', '--settings', JSON.stringify({ env: { CLAUDE_CODE_DISABLE_CRON: 'true' } })])
    expect(r.code).toBe(0)
    const body = r.requests[0]!.body as any
    expect(toolsOf(body).filter((n) => n.startsWith('Cron'))).toEqual([])
    expect(toolsOf(body)).toContain('ScheduleWakeup')
    expect(JSON.stringify(body.messages)).toContain('/loop 5m check the build')
  })
})

describe('the switches that turn @-mentions off', () => {
  it('CLAUDE_CODE_DISABLE_FILE_MENTIONS and CLAUDE_CODE_DISABLE_ATTACHMENTS attach nothing for an @path, left as typed', async () => {
    await writeFile(join(dir, 'note.txt'), 'NOTE-CONTENT-7\n')
    const on = await run(['look at @note.txt'])
    expect(JSON.stringify(on.requests[0]!.body.messages)).toContain('NOTE-CONTENT-7')
    for (const name of ['CLAUDE_CODE_DISABLE_FILE_MENTIONS', 'CLAUDE_CODE_DISABLE_ATTACHMENTS']) {
      const off = await run(['look at @note.txt', '--settings', JSON.stringify({ env: { [name]: '1' } })])
      const sent = JSON.stringify(off.requests[0]!.body.messages)
      expect(sent).toContain('look at @note.txt')
      expect(sent).not.toContain('NOTE-CONTENT-7')
    }
  })
})
