import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HEADLESS_OPTIONS } from '../../cli/headless-options.js'
import { builtCli } from '../helpers/built-cli.js'

const root = join(import.meta.dirname, '..', '..')

describe('modloop --help (the built CLI)', () => {
  it('names every flag -p accepts', () => {
    expect(existsSync(join(root, 'dist', 'bin', 'main.cjs')), 'run `npm run build` first').toBe(true)
    const help = execFileSync(process.execPath, [builtCli(), '--help'], { encoding: 'utf8' })
    const line = help.split('\n').find((l) => l.trim().startsWith('modloop -p'))!
    expect(line).toBeDefined()
    const missing = Object.keys(HEADLESS_OPTIONS).filter((name) => name !== 'print' && !new RegExp(`\\[--${name}[ \\]]`).test(line))
    expect(missing).toEqual([])
    for (const flag of ['--fallback-model', '--system-prompt', '--append-system-prompt', '--permission-mode', '--dangerously-skip-permissions', '--allowedTools', '--disallowedTools', '--include-partial-messages', '--script']) {
      expect(line).toContain(flag)
    }
  })
})
