import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { tempDir } from '../tools/harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
beforeAll(async () => { tmp = await tempDir('modloop-local-init-') })
afterAll(async () => { await tmp.remove() })

const lines = (out: string) => out.trim().split('\n').map((l) => JSON.parse(l) as { type: string; subtype?: string })

describe('-p with a local command, stream-json', () => {
  for (const command of ['/cost', '/compact']) {
    it(`${command} opens its stream with system/init, as a prompt does; its result names it as local_command`, async () => {
      const r = await runCli(['-p', command, '--output-format', 'stream-json', '--verbose'], { script: [{ reply: 'unused' }], cwd: tmp.dir })
      expect(r.err).toBe('')
      const messages = lines(r.out)
      expect(messages[0]).toMatchObject({ type: 'system', subtype: 'init' })
      expect(messages.filter((m) => m.subtype === 'init')).toHaveLength(1)
      expect(messages.at(-1)).toMatchObject({ type: 'result', local_command: command.slice(1) })
      expect(r.requests).toHaveLength(0)
    })
  }
})
