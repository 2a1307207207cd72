import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-no-slash-')))
  await mkdir(join(dir, '.claude', 'commands'), { recursive: true })
  await mkdir(join(dir, '.claude', 'skills', 'greet'), { recursive: true })
  await writeFile(join(dir, '.claude', 'commands', 'x.md'), 'COMMAND X BODY $ARGUMENTS\n')
  await writeFile(join(dir, '.claude', 'skills', 'greet', 'SKILL.md'), '---\nname: greet\ndescription: greets people\n---\nSKILL BODY\n')
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const cli = (args: string[]) => runCli(['-p', '/x foo', '--output-format', 'stream-json', '--verbose', ...args], { script: [{ reply: 'ok' }], cwd: dir, env: { HOME: dir }, stdin: '' })
const texts = (r: Awaited<ReturnType<typeof cli>>) => ((r.requests[0]!.body as any).messages[0].content as { text: string }[]).map((b) => b.text)

describe('--disable-slash-commands turns every command and skill off, as in Claude Code', () => {
  it('the prompt goes to the model as typed, with no commands, skills nor Skill tool', async () => {
    const r = await cli(['--disable-slash-commands'])
    expect(r.code).toBe(0)
    expect(texts(r)[0]).toBe('/x foo')
    expect(texts(r).join('\n')).toContain('This session has no slash commands.')
    expect(texts(r).join('\n')).not.toContain('COMMAND X BODY')
    const init = JSON.parse(r.out.split('\n')[0]!)
    expect(init.slash_commands).toEqual([])
    expect(init.skills).toEqual([])
    expect((r.requests[0]!.body.tools as { name: string }[]).map((t) => t.name)).not.toContain('Skill')
  })
})
