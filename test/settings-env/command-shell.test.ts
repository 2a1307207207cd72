import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commandShell } from '../../mods/_shared/command-shell.js'
import { runCli } from '../helpers/cli.js'

let dir: string
let wrapper: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'modloop-command-shell-'))
  // A shell of its own name that is bash underneath, marking what it runs: proof of which shell ran.
  wrapper = join(dir, 'mybash')
  await writeFile(wrapper, '#!/bin/sh\nexport VIA_WRAPPER="$0"\nexec bash "$@"\n')
  await chmod(wrapper, 0o755)
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const bash = (id: string, command: string) => ({ reply: [{ tool_use: { id, name: 'Bash', input: { command } } }] })
const script = [bash('toolu_1', 'echo "one ${VIA_WRAPPER:-plain}"'), bash('toolu_2', 'echo "two ${VIA_WRAPPER:-plain}"'), { reply: 'done' }]
const resultText = (body: any): string => {
  const block = body.messages.at(-1).content.find((b: any) => b.type === 'tool_result')
  return typeof block.content === 'string' ? block.content : block.content.map((c: any) => c.text).join('')
}
const systemText = (body: any): string => (typeof body.system === 'string' ? body.system : body.system.map((b: any) => b.text).join('\n'))

const run = (args: string[], env: Record<string, string> = {}) =>
  runCli(['-p', 'go', '--allowedTools', 'Bash', ...args], { script, cwd: dir, env: { HOME: dir, MODLOOP_HOME: join(dir, 'home'), SHELL: '/bin/sh', ...env } })

describe('CLAUDE_CODE_SHELL', () => {
  it('unset, commands run in bash and the model is told the user\'s $SHELL', async () => {
    const r = await run([])
    expect(r.code).toBe(0)
    expect(resultText(r.requests[1]!.body)).toBe('one plain')
    expect(resultText(r.requests[2]!.body)).toBe('two plain')
    expect(systemText(r.requests[0]!.body)).toContain('Shell: sh')
  })

  it('naming a bash or zsh in a settings env block, every command runs in it and the model is told its name', async () => {
    const r = await run(['--settings', JSON.stringify({ env: { CLAUDE_CODE_SHELL: wrapper } })])
    expect(r.code).toBe(0)
    expect(resultText(r.requests[1]!.body)).toBe(`one ${wrapper}`)
    expect(resultText(r.requests[2]!.body)).toBe(`two ${wrapper}`)
    expect(systemText(r.requests[0]!.body)).toContain('Shell: mybash')
    expect(r.err).not.toContain('CLAUDE_CODE_SHELL')
  })

  it('a bare name is looked up on the PATH', async () => {
    const r = await run([], { CLAUDE_CODE_SHELL: 'mybash', PATH: `${dir}:${process.env.PATH}` })
    expect(resultText(r.requests[1]!.body)).toBe(`one ${wrapper}`)
  })

  it('another shell, or a file that is not there, is set aside for bash with one warning', async () => {
    const sh = await run([], { CLAUDE_CODE_SHELL: '/bin/sh' })
    expect(resultText(sh.requests[1]!.body)).toBe('one plain')
    expect(sh.err.match(/CLAUDE_CODE_SHELL=\/bin\/sh is not a bash or zsh shell; Bash commands run in bash/g)).toHaveLength(1)
    expect(systemText(sh.requests[0]!.body)).toContain('Shell: sh')
    const missing = await run([], { CLAUDE_CODE_SHELL: join(dir, 'nozsh') })
    expect(resultText(missing.requests[2]!.body)).toBe('two plain')
    expect(missing.err).toContain(`CLAUDE_CODE_SHELL=${join(dir, 'nozsh')} is not an executable file; Bash commands run in bash`)
  })
})

describe('commandShell', () => {
  it('is bash when unset or empty', () => {
    expect(commandShell({})).toEqual({ shell: 'bash' })
    expect(commandShell({ CLAUDE_CODE_SHELL: ' ' })).toEqual({ shell: 'bash' })
    expect(commandShell({ CLAUDE_CODE_SHELL: 'fish', PATH: dir }).warning).toContain('not a bash or zsh shell')
    expect(commandShell({ CLAUDE_CODE_SHELL: 'zsh', PATH: dir }).warning).toBe('CLAUDE_CODE_SHELL=zsh is not an executable file on the PATH; Bash commands run in bash')
  })
})
