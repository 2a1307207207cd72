import { execFileSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import bash from '../../mods/bash/index.js'
import compaction from '../../mods/compaction/index.js'
import { compactionWith } from '../compaction/helpers.js'
import { runScript } from '../loop/helpers.js'
import { tempDir } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
beforeAll(async () => { tmp = await tempDir() })
afterAll(async () => { await tmp.remove() })

const bashTurn = (command: string) => [{ reply: [{ tool_use: { name: 'Bash', input: { command } } }] }, { reply: 'done' }]
const toolResult = (r: { body: any }) => r.body.messages.at(-1).content.find((b: any) => b.type === 'tool_result')
const textOf = (block: any) => (typeof block.content === 'string' ? block.content : block.content.map((b: any) => b.text).join(''))

describe('Bash output past the cap, with the default options of bash and compaction', () => {
  it('the model reads head and tail within 30,000 characters, and the saved file holds the whole output', async () => {
    const home = join(tmp.dir, 'home')
    const run = await runScript(bashTurn('seq 1 20000'), 'go', { mods: [bash, compaction], cwd: tmp.dir, env: { ...process.env, MODLOOP_HOME: home } })
    expect(run.result.result).toBe('done')
    const text = textOf(toolResult(run.requests[1]!))
    expect(text.length).toBeLessThanOrEqual(30_000)
    expect(text).not.toContain('<persisted-output>')
    expect(text.startsWith('1\n2\n3\n')).toBe(true)
    expect(text).toMatch(/\n19999\n20000\n/)
    expect(text).toContain('characters of output truncated')
    const path = /The full output \(\d+ characters\) was saved to: (.+)$/m.exec(text)![1]!
    expect(path.startsWith(home)).toBe(true)
    expect(await readFile(path, 'utf8')).toBe(execFileSync('seq', ['1', '20000'], { encoding: 'utf8' }))
  })

  it('a budget below the cap points at the saved full output, not at a copy of the cut text', async () => {
    const home = join(tmp.dir, 'home2')
    const small = compactionWith({ toolResults: { limits: { Bash: 5_000 } } })
    const run = await runScript(bashTurn('seq 1 20000'), 'go', { mods: [bash, small], cwd: tmp.dir, env: { ...process.env, MODLOOP_HOME: home } })
    const text = textOf(toolResult(run.requests[1]!))
    expect(text).toContain('<persisted-output>')
    const path = /The full output was saved to: (.+)$/m.exec(text)![1]!
    expect(await readFile(path, 'utf8')).toBe(execFileSync('seq', ['1', '20000'], { encoding: 'utf8' }))
  })

  it('output within the cap is sent whole, with no file', async () => {
    const run = await runScript(bashTurn('seq 1 100'), 'go', { mods: [bash, compaction], cwd: tmp.dir, env: { ...process.env, MODLOOP_HOME: join(tmp.dir, 'home3') } })
    const text = textOf(toolResult(run.requests[1]!))
    expect(text).toBe(execFileSync('seq', ['1', '100'], { encoding: 'utf8' }).trimEnd())
  })
})

describe('a background shell writes its whole output to a file', () => {
  it('BashOutput shows head and tail of what is new and points at the file, which holds everything', async () => {
    const home = join(tmp.dir, 'home-bg')
    const run = await runScript([
      { reply: [{ tool_use: { id: 'toolu_bg', name: 'Bash', input: { command: 'seq 1 20000; echo done >&2', run_in_background: true } } }] },
      { delayMs: 300, reply: [{ tool_use: { name: 'BashOutput', input: { bash_id: 'bash_1' } } }] },
      { reply: 'ok' },
    ], 'go', { mods: [bash, compaction], cwd: tmp.dir, env: { ...process.env, MODLOOP_HOME: home } })
    const started = textOf(toolResult(run.requests[1]!))
    const path = /Its whole output is also written to (.+)\.$/m.exec(started)![1]!
    expect(path.startsWith(home) && path.endsWith('toolu_bg.txt')).toBe(true)
    const output = textOf(toolResult(run.requests[2]!))
    expect(output).toContain('characters of output truncated')
    expect(output).toContain(`the whole output is in ${path}`)
    const expected = execFileSync('seq', ['1', '20000'], { encoding: 'utf8' })
    expect(await readFile(path, 'utf8')).toBe(`${expected}done\n`)
  })
})

describe('a foreground command\'s saved output', () => {
  it('stops at the file cap with a note, as a background shell\'s does', async () => {
    const { FullOutput } = await import('../../mods/bash/full-output.js')
    const path = join(tmp.dir, 'fg-capped', 'out.txt')
    const full = new FullOutput(path, 10, { fileChars: 1_000, backlogChars: 1_000_000 })
    for (let i = 0; i < 500; i++) full.push(`${i}\n`)
    expect(await full.save(true)).toBe(path)
    const saved = await readFile(path, 'utf8')
    expect(saved).toMatch(/\n\[output past 1000 characters is not saved\]\n$/)
    expect(saved.length).toBeLessThan(1_100)
  })
})
