import { mkdir, mkdtemp, realpath } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { bashModeBlocks, runBashMode } from '../../mods/bash/bash-mode.js'
import { ShellSession } from '../../mods/bash/shell-session.js'

const limits = { defaultTimeoutMs: 10_000, maxTimeoutMs: 10_000, maxOutputChars: 30_000, movedLimitMs: 10_000 }

describe('! shell mode: the user message a command becomes', () => {
  it('puts the output in bash-stdout when the command succeeds, in bash-stderr when it fails, notes after it', () => {
    expect(bashModeBlocks('ls', { text: 'a\nb', failed: false, notes: [] })).toEqual([
      { type: 'text', text: '<bash-input>ls</bash-input>\n' },
      { type: 'text', text: '<bash-stdout>a\nb</bash-stdout><bash-stderr></bash-stderr>' },
    ])
    expect(bashModeBlocks('false', { text: 'oops', failed: true, notes: ['reset'] })[1]!.text).toBe('<bash-stdout></bash-stdout><bash-stderr>oops\nreset</bash-stderr>')
  })

  it('runs in the session shell: both streams in one, cd kept, no output said so, a failure in stderr', async () => {
    const cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-bang-')))
    await mkdir(join(cwd, 'sub'))
    const shell = new ShellSession(cwd, [])
    const run = (command: string) => runBashMode(command, shell, limits, new AbortController().signal, join(cwd, 'full.txt'))
    const first = await run('echo hi; echo err >&2; cd sub')
    expect(first.output).toBe('hi\nerr\n')
    expect(first.blocks[1]!.text).toBe('<bash-stdout>hi\nerr</bash-stdout><bash-stderr></bash-stderr>')
    expect((await run('pwd')).blocks[1]!.text).toBe(`<bash-stdout>${cwd}/sub</bash-stdout><bash-stderr></bash-stderr>`)
    expect((await run('true')).blocks[1]!.text).toBe('<bash-stdout>(Bash completed with no output)</bash-stdout><bash-stderr></bash-stderr>')
    expect((await run('printf abc; exit 1')).blocks[1]!.text).toBe('<bash-stdout></bash-stdout><bash-stderr>abc</bash-stderr>')
  })

  it('stops on abort and tells nothing', async () => {
    const shell = new ShellSession(tmpdir(), [])
    const abort = new AbortController()
    const running = runBashMode('echo start; sleep 20', shell, limits, abort.signal, join(tmpdir(), 'unused.txt'))
    setTimeout(() => abort.abort(), 100)
    const r = await running
    expect(r).toMatchObject({ aborted: true, blocks: [] })
  })
})
