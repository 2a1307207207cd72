import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-prompt-files-')))
  await writeFile(join(dir, 'persona.md'), 'You are a terse reviewer.\nAnswer in one line.\n')
  await writeFile(join(dir, 'rules.md'), 'Always end with DONE.')
  await mkdir(join(dir, 'prompts'))
  await writeFile(join(dir, 'prompts', 'extra.md'), 'Nested rule.')
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const cli = (args: string[], cwd = dir) => runCli(['-p', 'hi', ...args], { script: [{ reply: 'ok' }], cwd, env: { HOME: dir }, stdin: '' })
const system = (r: Awaited<ReturnType<typeof cli>>) => {
  const s = r.requests[0]!.body.system as string | { text: string }[]
  return typeof s === 'string' ? s : s.map((b) => b.text).join('\n')
}

describe('--system-prompt-file and --append-system-prompt-file, as in Claude Code', () => {
  it('--system-prompt-file replaces the default system prompt with the file, as --system-prompt does with its text', async () => {
    const r = await cli(['--system-prompt-file', 'persona.md'])
    expect(r.code).toBe(0)
    expect(system(r)).toContain('You are a terse reviewer.\nAnswer in one line.')
    const plain = await cli(['--system-prompt', 'You are a terse reviewer.\nAnswer in one line.\n'])
    expect(system(r)).toBe(system(plain))
    expect(system(r)).not.toContain('Working directory:')
  })

  it('--append-system-prompt-file keeps the default prompt and adds the file after it', async () => {
    const r = await cli(['--append-system-prompt-file', 'rules.md'])
    expect(r.code).toBe(0)
    const s = system(r)
    expect(s).toContain(`Working directory: ${dir}`)
    expect(s.indexOf('Always end with DONE.')).toBeGreaterThan(s.indexOf('Working directory:'))
    const plain = await cli(['--append-system-prompt', 'Always end with DONE.'])
    expect(s).toBe(system(plain))
  })

  it('an append, from a file or as text, combines with either replacement, the replacement first', async () => {
    const r = await cli(['--system-prompt-file', 'persona.md', '--append-system-prompt', 'Inline rule.'])
    expect(r.code).toBe(0)
    expect(system(r)).toMatch(/You are a terse reviewer\.[\s\S]*Inline rule\./)
    const other = await cli(['--system-prompt', 'Inline persona.', '--append-system-prompt-file', 'rules.md'])
    expect(other.code).toBe(0)
    expect(system(other)).toMatch(/Inline persona\.[\s\S]*Always end with DONE\./)
  })

  it('resolves a relative path from the directory modloop starts in', async () => {
    const r = await cli(['--append-system-prompt-file', 'extra.md'], join(dir, 'prompts'))
    expect(r.code).toBe(0)
    expect(system(r)).toContain('Nested rule.')
  })

  it('refuses a text and a file for the same prompt, before any request, in Claude Code\'s words', async () => {
    const r = await cli(['--system-prompt', 'x', '--system-prompt-file', 'persona.md'])
    expect(r.code).toBe(1)
    expect(r.err).toContain('Cannot use both --system-prompt and --system-prompt-file. Please use only one.')
    expect(r.requests).toHaveLength(0)
    const a = await cli(['--append-system-prompt-file', 'rules.md', '--append-system-prompt', 'x'])
    expect(a.code).toBe(1)
    expect(a.err).toContain('Cannot use both --append-system-prompt and --append-system-prompt-file. Please use only one.')
  })

  it('a file that is missing, or not a file, stops the launch naming its full path', async () => {
    const r = await cli(['--system-prompt-file', 'nope.md'])
    expect(r.code).toBe(1)
    expect(r.err).toContain(`System prompt file not found: ${join(dir, 'nope.md')}`)
    expect(r.requests).toHaveLength(0)
    const a = await cli(['--append-system-prompt-file', 'gone.md'])
    expect(a.code).toBe(1)
    expect(a.err).toContain(`Append system prompt file not found: ${join(dir, 'gone.md')}`)
    const d = await cli(['--system-prompt-file', 'prompts'])
    expect(d.code).toBe(1)
    expect(d.err).toContain(`Error reading system prompt file ${join(dir, 'prompts')}: EISDIR`)
  })

  it('--exclude-dynamic-system-prompt-sections is ignored with a replacing file, as with --system-prompt', async () => {
    const r = await cli(['--exclude-dynamic-system-prompt-sections', '--system-prompt-file', 'persona.md'])
    expect(r.code).toBe(0)
    expect(JSON.stringify((r.requests[0]!.body as { messages: unknown }).messages)).not.toContain('Working directory:')
  })
})
