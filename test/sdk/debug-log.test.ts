import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import { ModHost } from '../../core/mod/host.js'
import { runScript } from '../loop/helpers.js'

const dir = mkdtempSync(join(tmpdir(), 'modloop-debug-log-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const chatty = defineMod({ name: 'chatty', register: (on) => on('turn.start', ($, e, next) => {
  $.log.debug('turn started')
  return next(e)
}) })

describe('the debugFile option', () => {
  it('hears the debug lines of a given host too, whose own sink drops them (the terminal\'s)', async () => {
    const kept: string[] = []
    const host = new ModHost({ log: (mod, level, text) => { if (level !== 'debug') kept.push(`${mod}: ${text}`) } })
    await host.add(chatty)
    const file = join(dir, 'given-host.log')
    const run = await runScript([{ reply: 'ok' }], 'go', { host, debugFile: file })
    await host.close()
    expect(run.result).toMatchObject({ subtype: 'success', result: 'ok' })
    expect(readFileSync(file, 'utf8')).toMatch(/\[DEBUG\] chatty: turn started\n/)
    expect(kept).toEqual([])
  })
})
