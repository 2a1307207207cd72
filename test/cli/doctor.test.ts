import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

/** A project folder and a home of its own (no user settings), as files on disk. */
function project(files: Record<string, string>): { cwd: string; env: Record<string, string> } {
  const cwd = mkdtempSync(join(tmpdir(), 'modloop-doctor-'))
  const home = mkdtempSync(join(tmpdir(), 'modloop-doctor-home-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(cwd, path, '..'), { recursive: true })
    writeFileSync(join(cwd, path), text)
  }
  return { cwd, env: { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude'), MODLOOP_HOME: join(home, '.modloop') } }
}

const doctor = (p: { cwd: string; env: Record<string, string> }) => runCli(['doctor'], { script: [], cwd: p.cwd, env: p.env })

describe('modloop doctor', () => {
  it('finds nothing wrong in a folder whose settings and config load', async () => {
    // One mod, not the default distribution: loading every mod would make the test slow, not better.
    const run = await doctor(project({ '.claude/settings.json': '{"permissions": {"allow": ["Read"]}}', 'modloop.config.json': '{"mods": ["transcripts"]}' }))
    expect(run.code).toBe(0)
    expect(run.out).toMatch(/^modloop doctor\n\nVersion: .+\nNode: v.+\nConfig: modloop.config.json\nMods: 1 loaded\n\nNo issues found\.\n$/)
  })

  it('names a settings file that is not JSON, a value that is skipped, a mod that fails to load and a hook whose program is missing; exits 0', async () => {
    const p = project({
      '.claude/settings.json': '{bad',
      '.claude/settings.local.json': JSON.stringify({
        permissions: { defaultMode: 'bogus' },
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/nonexistent/hook.sh' }] }] },
      }),
      'modloop.config.json': JSON.stringify({ mods: ['no-such-mod'] }),
    })
    const run = await doctor(p)
    expect(run.code).toBe(0)
    const settingsFile = join(p.cwd, '.claude', 'settings.json')
    expect(run.out).toContain(`\nInvalid settings\n- ${settingsFile}: not valid JSON`)
    expect(run.out.split(`${settingsFile}: not valid JSON`)).toHaveLength(2)
    expect(run.out).toContain('settings.local.json: permissions.defaultMode: "bogus" is not one of')
    expect(run.out).toContain('\nConfig and mods\n- MODLOOP_ERR_MOD_RESOLVE modloop.config.json: mod "no-such-mod" not found')
    expect(run.out).toContain('\nHooks that cannot start\n- PreToolUse hook in .claude/settings.local.json: /nonexistent/hook.sh: no such file\n')
    expect(run.out).toMatch(/\n4 issues found\.\n$/)
  })
})
