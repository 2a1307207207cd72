import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

describe('generated docs', () => {
  it('docs/events.md matches the catalog (run `node scripts/docs-events.mjs` after changing events)', async () => {
    const r = await promisify(execFile)(process.execPath, ['scripts/docs-events.mjs', '--check']).then(() => 0, (err: { code?: number }) => err.code ?? 1)
    expect(r).toBe(0)
  })

  it('docs/mod-api.md matches the $ interface (run `node scripts/docs-api.mjs` after changing core/mod/api.ts)', async () => {
    const r = await promisify(execFile)(process.execPath, ['scripts/docs-api.mjs', '--check']).then(() => 0, (err: { code?: number }) => err.code ?? 1)
    expect(r).toBe(0)
  })
})
