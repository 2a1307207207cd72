import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { refuseBypassAsRoot } from '../../cli/root-bypass.js'
import { runCli } from '../helpers/cli.js'

const REFUSED = '--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons'

describe('skipping permission checks as root', () => {
  it('is refused for root unless IS_SANDBOX=1; other users and other modes pass', () => {
    expect(() => refuseBypassAsRoot(true, {}, 0)).toThrow(REFUSED)
    expect(() => refuseBypassAsRoot(true, { IS_SANDBOX: 'yes' }, 0)).toThrow(REFUSED)
    expect(() => refuseBypassAsRoot(true, { IS_SANDBOX: '1' }, 0)).not.toThrow()
    expect(() => refuseBypassAsRoot(true, {}, 1000)).not.toThrow()
    expect(() => refuseBypassAsRoot(false, {}, 0)).not.toThrow()
  })

  it.runIf(process.getuid?.() === 0)('-p as root: every way of asking for it exits 1 before any request; IS_SANDBOX=1 runs', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'modloop-root-'))
    const env = { HOME: cwd, MODLOOP_HOME: join(cwd, 'home'), IS_SANDBOX: '' }
    for (const flags of [['--dangerously-skip-permissions'], ['--permission-mode', 'bypassPermissions'], ['--allow-dangerously-skip-permissions']]) {
      const r = await runCli(['-p', 'hi', ...flags], { script: [{ reply: 'never' }], cwd, env })
      expect(r.code, flags.join(' ')).toBe(1)
      expect(r.err).toContain(REFUSED)
      expect(r.requests).toEqual([])
    }
    const ok = await runCli(['-p', 'hi', '--dangerously-skip-permissions'], { script: [{ reply: 'ran' }], cwd, env: { ...env, IS_SANDBOX: '1' } })
    expect(ok.code, ok.err).toBe(0)
    expect(ok.out).toBe('ran\n')
  })
})
