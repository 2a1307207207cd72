import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { expectCleanEnd, runFaulty } from './run-faulty.js'

// Each case is a real process (a fault that kills or drains the process is the point), a few at once.

const mod = (body: string) => `export default { name: 'faulty', register(on) { ${body} } }\n`

describe.concurrent('a mod fault never ends a run silently', () => {
  it.each([
    ['a tool.call handler that never settles', mod(`on('tool.call', () => new Promise(() => {}), { budgetMs: 200 })`), 'faulty: tool.call handler timed out'],
    ['a prompt.submit handler that never settles', mod(`on('prompt.submit', () => new Promise(() => {}), { budgetMs: 200 })`), 'faulty: prompt.submit handler timed out'],
    ['a handler that throws', mod(`on('tool.call', () => { throw new Error('kaboom') })`), 'faulty: tool.call handler failed: kaboom'],
    ['a handler that answers the wrong shape', mod(`on('tool.call', () => 42)`), 'faulty: tool.call handler failed'],
    ['a stray rejection from a timer', mod(`on('tool.call', ($, e, next) => { setTimeout(() => Promise.reject(new Error('stray'))); return next(e) })`), 'MODLOOP_ERR_STRAY: faulty: an unhandled rejection from its tool.call handler'],
    ['a throw inside a timer', mod(`on('tool.call', ($, e, next) => { setTimeout(() => { throw new Error('timer') }); return next(e) })`), 'MODLOOP_ERR_STRAY: faulty: an uncaught exception from its tool.call handler'],
    ['a throw in register', mod(`throw new Error('no register')`), 'faulty: register failed'],
    ['a register that never returns', `export default { name: 'faulty', register() { return new Promise(() => {}) } }\n`, 'MODLOOP_ERR_MOD_REGISTER_TIMEOUT: faulty: register did not return within 300 ms'],
    ['bad options', `import { z } from 'zod'\nexport default { name: 'faulty', options: z.object({ level: z.number() }), register() {} }\n`, 'faulty: option "level"'],
    ['a syntax error', `export default { name: 'faulty', register(on) { on('tool.call', ( }\n`, 'faulty.mjs: the mod failed to import: syntax error'],
    ['a missing import', `import 'no-such-package-anywhere'\nexport default { name: 'faulty', register() {} }\n`, 'faulty.mjs: the mod failed to import'],
  ])('%s: the run ends with a result, names the mod, leaves a whole transcript and no lock', async (_, source, culprit) => {
    const cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-faults-mods-')))
    try {
      const run = await runFaulty(cwd, source, { env: { MODLOOP_REGISTER_BUDGET_MS: '300' } })
      expect(run.result, run.err).toMatchObject({ type: 'result', subtype: 'success', result: 'done' })
      expect(run.code).toBe(0)
      expect(run.err).toContain(culprit)
      expect(run.err).not.toMatch(/faulty: faulty:/)
      await expectCleanEnd(cwd, run)
    } finally {
      await rm(cwd, { recursive: true, force: true })
    }
  })
})
