import { describe, expect, it } from 'vitest'
import { main } from '../../cli/main.js'

async function run(argv: string[]) {
  let out = ''
  let err = ''
  const code = await main(argv, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, cwd: process.cwd(), env: {} })
  return { code, out, err }
}

describe('a group command without its subcommand', () => {
  it.each([
    ['mods', ['mods list', 'mods stack']],
    ['hooks', ['hooks list', 'hooks test']],
    ['sessions', ['sessions list', 'sessions show']],
    ['permissions', ['permissions check']],
  ])('`modloop %s` prints the group usage with its subcommands and exits 1', async (group, subcommands) => {
    const r = await run([group])
    expect(r.code).toBe(1)
    expect(r.out).toBe('')
    expect(r.err).toContain(`usage: modloop ${group} <subcommand>`)
    for (const s of subcommands) expect(r.err).toContain(`modloop ${s}`)
  })

  it('`modloop mods --help` prints the group usage, not the -p usage, and exits 0', async () => {
    const r = await run(['mods', '--help'])
    expect(r.code).toBe(0)
    expect(r.out).toContain('usage: modloop mods <subcommand>')
    expect(r.out).toContain('modloop mods list')
    expect(r.out).not.toContain('modloop -p')
  })
})
