import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { runScript } from '../loop/helpers.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const bad: [string, unknown, string][] = [
  ['an unknown type', { type: 'json', schema: { type: 'object' } }, 'outputFormat.type: must be "json_schema"'],
  ['an array root', { type: 'json_schema', schema: { type: 'array', items: {} } }, 'outputFormat.schema.type: must be "object"'],
  ['a schema Ajv rejects', { type: 'json_schema', schema: { type: 'object', properties: { a: { type: 'nonsense' } } } }, 'outputFormat.schema: not a valid JSON Schema'],
  ['no schema', { type: 'json_schema' }, 'outputFormat.schema: must be a JSON Schema object'],
]

describe('an invalid outputFormat', () => {
  it.each(bad)('%s ends query() with an error result naming outputFormat, and throws', async (_what, outputFormat, message) => {
    const run = await runScript([{ reply: 'ok' }], 'go', { outputFormat: outputFormat as never, log: () => undefined })
    expect(run.requests).toHaveLength(0)
    expect(run.result).toMatchObject({ type: 'result', is_error: true, terminal_reason: 'turn_setup_failed' })
    expect(run.result.errors!.join()).toContain(message)
    expect(String(run.error)).toContain(message)
  })

  it('--json-schema with a non-object schema is a usage error', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'modloop-so-bad-'))
    const run = await runCli(['-p', 'go', '--json-schema', '{"type":"array"}'], { script: [], cwd })
    expect(run.code).toBe(1)
    expect(run.err).toContain('--json-schema: ')
    expect(run.err).toContain('must describe an object')
    expect(run.requests).toHaveLength(0)
  })
})

describe('the log option', () => {
  it('defaults to warnings and errors on stderr', () => {
    expect(existsSync(join(root, 'dist', 'index.js')), 'run `npm run build` first').toBe(true)
    // A mod that warns and informs, through query() with no log option, in a real process.
    const program = `
      import { query, defineMod } from ${JSON.stringify(join(root, 'dist', 'index.js'))}
      const loud = defineMod({ name: 'loud', register(on) {
        on('session.start', async ($, e, next) => { $.log.warn('careful now'); $.log.info('just so you know'); return next(e) })
      } })
      for await (const m of query({ prompt: 'hi', options: { bare: true, mods: [loud], script: [{ reply: 'ok' }], persistSession: false } })) {}
    `
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8', cwd: mkdtempSync(join(tmpdir(), 'modloop-log-')) })
    expect(r.status).toBe(0)
    expect(r.stderr).toContain('modloop: loud: careful now')
    expect(r.stderr).not.toContain('just so you know')
    expect(r.stdout).toBe('')
  })
})
