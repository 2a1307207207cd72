import { parseArgs } from 'node:util'
import { describe, expect, it } from 'vitest'
import { resumeFlags } from '../../cli/resume-flags.js'
import { HEADLESS_OPTIONS } from '../../cli/headless-options.js'
import { resumeCommand } from '../../mods/terminal-ui/resume-hint.js'

const flagsOf = (args: string[]) => resumeFlags(parseArgs({ args, options: HEADLESS_OPTIONS, allowPositionals: true, tokens: true }).tokens)
const ID = '0b8a7c6d-1111-4222-8333-944455556666'

describe('the launch options the resume hint repeats', () => {
  it('keeps every option but those that pick the session or name the worktree, and leaves out the prompt', () => {
    expect(flagsOf(['--dangerously-skip-permissions', '--model=opus', '-w', 'e1', '--add-dir', '../a', '--add-dir', '../b', '--continue', 'fix the bug'])).toBe('--dangerously-skip-permissions --model=opus --add-dir ../a --add-dir ../b')
    expect(flagsOf(['--resume', ID, '--session-id', ID, '--fork-session'])).toBe('')
  })

  it('drops them all when one cannot be pasted back into a shell as it is', () => {
    expect(flagsOf(['--model', 'opus', '--settings', '{"env":{"A":"1"}}'])).toBe('')
    expect(flagsOf(['--model', 'opus', '--append-system-prompt', 'be brief'])).toBe('')
    expect(flagsOf(['--mcp-config', '/dev/fd/3'])).toBe('')
  })

  it('names a path only when the whole command fits the terminal\'s width', () => {
    expect(resumeCommand(ID, '--add-dir ../a', undefined, 200)).toBe(`modloop --add-dir ../a --resume ${ID}`)
    expect(resumeCommand(ID, '--add-dir ../a', undefined, 40)).toBe(`modloop --resume ${ID}`)
    expect(resumeCommand(ID, '--model opus', 'e1', 40)).toBe(`modloop --model opus --worktree "e1" --resume ${ID}`)
    expect(resumeCommand(ID, '', undefined, 40)).toBe(`modloop --resume ${ID}`)
  })
})
