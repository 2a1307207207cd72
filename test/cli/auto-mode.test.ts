import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { DEFAULT_RULES } from '../../mods/auto-mode/rules.js'

/** A user settings folder of its own holding `settings`, and the CLI run with it. */
function user(settings?: unknown) {
  const dir = join(mkdtempSync(join(tmpdir(), 'modloop-auto-mode-')), '.claude')
  mkdirSync(dir, { recursive: true })
  if (settings !== undefined) writeFileSync(join(dir, 'settings.json'), typeof settings === 'string' ? settings : JSON.stringify(settings))
  const cli = (args: string[], stdin?: string) => runCli(['auto-mode', ...args], { script: [], cwd: dir, env: { CLAUDE_CONFIG_DIR: dir }, ...(stdin !== undefined ? { stdin } : {}) })
  return { file: join(dir, 'settings.json'), cli }
}

describe('modloop auto-mode', () => {
  it('config: the user\'s sections replace the defaults, $defaults splices them in, the rest stay default', async () => {
    const u = user({ autoMode: { allow: ['Mine: my rule', '$defaults'], environment: ['Trusted: github.com/acme'] } })
    const run = await u.cli(['config'])
    expect(run.code).toBe(0)
    expect(JSON.parse(run.out)).toEqual({ allow: ['Mine: my rule', ...DEFAULT_RULES.allow], soft_deny: DEFAULT_RULES.soft_deny, hard_deny: DEFAULT_RULES.hard_deny, environment: ['Trusted: github.com/acme'] })
    expect(JSON.parse((await user('{bad').cli(['config'])).out)).toEqual(DEFAULT_RULES)
  })

  it('defaults: every section, or with --label only the entries whose label starts with it', async () => {
    const u = user()
    expect(JSON.parse((await u.cli(['defaults'])).out)).toEqual(DEFAULT_RULES)
    const data = JSON.parse((await u.cli(['defaults', '--label', 'DATA'])).out)
    expect(Object.keys(data)).toEqual(['allow', 'soft_deny', 'hard_deny', 'environment'])
    expect([...data.allow, ...data.soft_deny, ...data.hard_deny, ...data.environment].every((e: string) => e.startsWith('Data'))).toBe(true)
    expect(data.hard_deny).toHaveLength(1)
  })

  it('reset: asks on stdin (no answer keeps it, exit 1), -y removes autoMode and keeps the rest; nothing to reset and a file that is not JSON say so', async () => {
    const u = user({ model: 'opus', autoMode: { allow: ['a', 'b'] } })
    const kept = await u.cli(['reset'], '')
    expect(kept.code).toBe(1)
    expect(kept.out).toBe(`This resets auto mode to its defaults by removing the autoMode section from ${u.file}:\n  - allow (2 entries)\nReset auto mode configuration to defaults? [y/N] `)
    expect(kept.err).toBe('\nAborted.\n')
    expect(JSON.parse(readFileSync(u.file, 'utf8')).autoMode).toBeDefined()
    const reset = await u.cli(['reset', '-y'])
    expect(reset.code).toBe(0)
    expect(reset.out).toContain(`Auto mode configuration reset to defaults — autoMode section removed from ${u.file}.`)
    expect(JSON.parse(readFileSync(u.file, 'utf8'))).toEqual({ model: 'opus' })
    expect((await u.cli(['reset', '-y'])).out).toBe(`Auto mode configuration is already at defaults — ${u.file} has no autoMode section.\n`)
    const bad = user('{bad')
    const refused = await bad.cli(['reset', '-y'])
    expect(refused.code).toBe(1)
    expect(refused.err).toBe(`The settings file at ${bad.file} contains invalid JSON — fix or remove it, then re-run reset.\n`)
  })
})
