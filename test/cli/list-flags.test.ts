import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expandVariadic } from '../../cli/variadic-args.js'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-list-flags-')))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const cli = (args: string[]) => runCli(args, { script: [{ reply: 'ok' }], cwd: dir, stdin: '' })
const toolNames = (r: Awaited<ReturnType<typeof cli>>) => (r.requests[0]!.body.tools as { name: string }[]).map((t) => t.name)
const promptText = (r: Awaited<ReturnType<typeof cli>>) => (r.requests[0]!.body as any).messages[0].content[0].text

describe("-p's list flags take several values in a row, as Claude Code's do", () => {
  it('--disallowedTools Bash WebFetch denies both, and neither word joins the prompt', async () => {
    const r = await cli(['-p', 'say hi', '--disallowedTools', 'Bash', 'WebFetch'])
    expect(r.code).toBe(0)
    expect(promptText(r)).toBe('say hi')
    expect(toolNames(r)).not.toContain('Bash')
    expect(toolNames(r)).not.toContain('WebFetch')
  })

  it('--allowed-tools and --disallowed-tools are the same flags', async () => {
    const r = await cli(['-p', 'say hi', '--disallowed-tools', 'WebFetch', '--allowed-tools', 'Bash(git log *)', 'Read'])
    expect(r.code).toBe(0)
    expect(toolNames(r)).not.toContain('WebFetch')
    expect(toolNames(r)).toContain('Bash')
  })

  it('--tools Read Grep offers those two; a prompt after a list flag is named in the error', async () => {
    const r = await cli(['-p', 'go', '--tools', 'Read', 'Grep'])
    expect(toolNames(r)).toEqual(['Read', 'Grep'])
    const eaten = await cli(['-p', '--tools', 'Read', 'go'])
    expect(eaten.code).toBe(1)
    expect(eaten.err).toContain('--tools takes every word after it up to the next option')
  })

  it('the rewrite: words up to the next option, `=` values, `--` ends it', () => {
    expect(expandVariadic(['--add-dir', 'a', 'b', '--model', 'm', 'p'], ['add-dir'])).toEqual(['--add-dir', 'a', '--add-dir', 'b', '--model', 'm', 'p'])
    expect(expandVariadic(['--add-dir=a', 'b'], ['add-dir'])).toEqual(['--add-dir=a', '--add-dir', 'b'])
    expect(expandVariadic(['--add-dir', 'a', '--', 'b'], ['add-dir'])).toEqual(['--add-dir', 'a', '--', 'b'])
    expect(expandVariadic(['--allowed-tools', 'x', 'y'], ['allowedTools'], { 'allowed-tools': 'allowedTools' })).toEqual(['--allowedTools', 'x', '--allowedTools', 'y'])
  })
})
