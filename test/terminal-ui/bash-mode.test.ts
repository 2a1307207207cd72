import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hasTmux, project, tmuxSuite } from './suite.js'

const suite = tmuxSuite(import.meta.filename)
const lastUser = (i: number) => (suite.state.server!.requests[i]!.body.messages as { content: unknown }[]).at(-1)!.content

describe.runIf(hasTmux)('! shell mode in the interactive terminal (tmux, 80×24)', () => {
  it('runs the command in the session shell, shows its output, sends it without UserPromptSubmit, and Up recalls it in shell mode', async () => {
    const where = await project()
    const log = join(where.cwd, 'ups.log')
    await mkdir(join(where.home, '.claude'))
    const hooks = { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `cat > ${log}` }] }] }
    await writeFile(join(where.home, '.claude/settings.json'), JSON.stringify({ hooks }))
    const p = await suite.open({ steps: [{ reply: 'saw it' }] }, where)
    await p.type('!')
    await p.waitFor('! for shell mode')
    await p.keys('BSpace')
    await p.waitFor((s: string) => !s.includes('! for shell mode'))
    await p.type('!')
    await p.type('echo hi; echo err >&2; cd /nowhere-else 2>/dev/null; true')
    await p.keys('Enter')
    await p.waitFor('saw it')
    const screen = await p.capture()
    expect(screen).toMatch(/! echo hi; echo err >&2[^\n]*\n\s+⎿\s+hi\n\s+err/)
    expect(lastUser(0)).toEqual([
      { type: 'text', text: '<bash-input>echo hi; echo err >&2; cd /nowhere-else 2>/dev/null; true</bash-input>\n' },
      expect.objectContaining({ type: 'text', text: '<bash-stdout>hi\nerr</bash-stdout><bash-stderr></bash-stderr>' }),
    ])
    expect(existsSync(log)).toBe(false)
    await p.keys('Up')
    await p.waitFor('! for shell mode')
    expect(await p.capture()).toMatch(/^! echo hi; echo err/m)
  })
})
