import { execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readOpened, readRegular } from '../../mods/_shared/read-regular.js'
import { decodeText } from '../../mods/_shared/text-file.js'
import read from '../../mods/read/index.js'
import { openTools, tempDir, type Tools } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
let outside: Awaited<ReturnType<typeof tempDir>>
let tools: Tools
const p = (name: string) => join(tmp.dir, name)

beforeAll(async () => {
  tmp = await tempDir()
  outside = await tempDir()
  await writeFile(p('five.txt'), 'one\ntwo\nthree\nfour\nfive\n')
  await writeFile(p('crlf.txt'), 'alpha\r\nbeta\r\n')
  await writeFile(p('empty.txt'), '')
  await writeFile(p('long.txt'), `${'x'.repeat(2500)}\nshort\n`)
  await writeFile(p('many.txt'), Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n'))
  await writeFile(p('blob.dat'), Buffer.from([1, 2, 0, 3, 4]))
  await writeFile(p('config.json'), '{}')
  await mkdir(p('sub'))
  await writeFile(join(outside.dir, 'secret.txt'), 'secret')
  await symlink(join(outside.dir, 'secret.txt'), p('link-out.txt'))
  await symlink(p('five.txt'), p('link-in.txt'))
  tools = await openTools(tmp.dir, [read])
})
afterAll(async () => {
  await tools.close()
  await tmp.remove()
  await outside.remove()
})

describe('Read', () => {
  it('numbers lines like cat -n and returns the structured file', async () => {
    const r = await tools.call('Read', { file_path: p('five.txt') })
    expect(r.isError).toBe(false)
    expect(r.text).toBe('     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour\n     5\tfive')
    expect(r.result).toEqual({ type: 'text', file: { filePath: p('five.txt'), content: 'one\ntwo\nthree\nfour\nfive', numLines: 5, startLine: 1, totalLines: 5 } })
  })

  it('gives the shown lines joined by LF as the structured content, whatever the file looks like', async () => {
    const cases: Record<string, string> = {
      'no-final-newline.txt': 'a\nb',
      'blank-lines.txt': 'a\n\n\nb\n\n',
      'crlf-mixed.txt': 'a\r\nb\nc\r\n',
      'cut-line.txt': `${'y'.repeat(2100)}\nz\n`,
    }
    for (const [name, text] of Object.entries(cases)) {
      await writeFile(p(name), text)
      const r = await tools.call('Read', { file_path: p(name) })
      const lines = text.split(/\r?\n/)
      if (lines.at(-1) === '') lines.pop()
      const shown = lines.map((l) => (l.length > 2000 ? `${l.slice(0, 2000)}... [line cut at 2000 characters]` : l))
      expect((r.result as { file: { content: string } }).file.content, name).toBe(shown.join('\n'))
    }
  })

  it('reads a range with offset and limit, and says how to read on', async () => {
    const r = await tools.call('Read', { file_path: p('five.txt'), offset: 2, limit: 2 })
    expect(r.text).toContain('     2\ttwo\n     3\tthree')
    expect(r.text).not.toContain('four')
    expect(r.text).toContain('offset 4')
  })

  it('takes a number sent as a string, as Claude Code does, but refuses one that spells no number', async () => {
    const r = await tools.call('Read', { file_path: p('five.txt'), offset: '3', limit: '2' })
    expect(r.isError).toBe(false)
    expect(r.text).toMatch(/^     3\tthree\n     4\tfour\n/)
    const bad = await tools.call('Read', { file_path: p('five.txt'), offset: 'three' })
    expect(bad).toMatchObject({ isError: true, text: expect.stringContaining('offset: Invalid input: expected number, received string') })
  })

  it('reads from the start for an offset below 1 and the default length for a limit of 0, as Claude Code does', async () => {
    const whole = (await tools.call('Read', { file_path: p('five.txt') })).text
    expect(await tools.call('Read', { file_path: p('five.txt'), offset: -2 })).toMatchObject({ isError: false, text: whole })
    expect(await tools.call('Read', { file_path: p('five.txt'), limit: 0 })).toMatchObject({ isError: false, text: whole })
    expect(await tools.call('Read', { file_path: p('five.txt'), offset: 0, limit: '0' })).toMatchObject({ isError: false, text: whole })
  })

  it('refuses a parameter it does not take, as Claude Code does, rather than reading without it', async () => {
    expect(await tools.call('Read', { file_path: p('five.txt'), lines: '2-3' })).toMatchObject({
      isError: true, text: 'InputValidationError: Read was called with invalid input:\n- lines: An unexpected parameter `lines` was provided',
    })
  })

  it('stops at 2000 lines by default, and cuts long lines', async () => {
    const many = await tools.call('Read', { file_path: p('many.txt') })
    expect(many.text).toContain('  2000\tline 2000')
    expect(many.text).not.toContain('line 2001')
    expect((many.result as any).file).toMatchObject({ numLines: 2000, totalLines: 2500 })
    const long = await tools.call('Read', { file_path: p('long.txt') })
    expect(long.text).toContain('line cut at 2000 characters')
    expect(long.text.split('\n')[0]!.length).toBeLessThan(2100)
  })

  it('hides CR of CRLF lines', async () => {
    const r = await tools.call('Read', { file_path: p('crlf.txt') })
    expect(r.text).toBe('     1\talpha\n     2\tbeta')
  })

  it('answers clearly for empty files, offsets past the end, binaries, directories and missing files', async () => {
    expect((await tools.call('Read', { file_path: p('empty.txt') })).text).toContain('exists but is empty')
    const past = await tools.call('Read', { file_path: p('five.txt'), offset: 9 })
    expect(past.text).toContain('has 5 lines, fewer than the offset 9')
    const bin = await tools.call('Read', { file_path: p('blob.dat') })
    expect(bin).toMatchObject({ isError: true, text: expect.stringContaining('binary file') })
    const dir = await tools.call('Read', { file_path: p('sub') })
    expect(dir).toMatchObject({ isError: true, text: expect.stringContaining('is a directory') })
    const missing = await tools.call('Read', { file_path: p('config.yaml') })
    expect(missing).toMatchObject({ isError: true, text: expect.stringContaining('File does not exist') })
    expect(missing.text).toContain(`Did you mean ${p('config.json')}?`)
  })

  // A FIFO is refused from its stat: opened, it would hang Read or take a waiting writer's data.
  it.skipIf(process.platform === 'win32')('refuses a FIFO unopened (a writer waiting on it stays waiting), and reads a file of unknown size to its end', async () => {
    execFileSync('mkfifo', [p('pipe')])
    // A writer waits on the FIFO: Read must not open it, or the writer's data would go nowhere.
    const marker = p('writer-done')
    const writer = spawn('sh', ['-c', `echo data > ${p('pipe')}; touch ${marker}`], { stdio: 'ignore' })
    await new Promise((r) => setTimeout(r, 150))
    const fifo = await tools.call('Read', { file_path: p('pipe') })
    expect(fifo).toMatchObject({ isError: true, text: expect.stringContaining('not a regular file') })
    await new Promise((r) => setTimeout(r, 150))
    expect(existsSync(marker)).toBe(false)
    writer.kill('SIGKILL')
    if (process.platform === 'linux') {
      // procfs files report a size of 0 yet have content.
      const r = await readRegular('/proc/self/status', 1_000_000)
      expect(r.ok && decodeText(r.bytes).text).toContain('Name:')
    }
  })

  it('reads the file the path names when it is read, though another was stat\'ed (saved by a rename in between)', async () => {
    const { rename, stat } = await import('node:fs/promises')
    const { closeSync, openSync } = await import('node:fs')
    await writeFile(p('saved.txt'), 'a'.repeat(10))
    const before = await stat(p('saved.txt'))
    await writeFile(p('saved.tmp'), 'b'.repeat(100))
    await rename(p('saved.tmp'), p('saved.txt'))
    const fd = openSync(p('saved.txt'), 'r')
    const r = await readOpened(fd, before, 1_000)
    closeSync(fd)
    expect(r).toMatchObject({ ok: true, mtimeMs: (await stat(p('saved.txt'))).mtimeMs })
    expect(r.ok && r.bytes.toString()).toBe('b'.repeat(100))
  })

  it('wants a path inside the allowed directories, symlinks resolved', async () => {
    const rel = await tools.call('Read', { file_path: 'five.txt' })
    expect(rel).toMatchObject({ isError: false, text: expect.stringContaining('     1\t') })
    const out = await tools.call('Read', { file_path: join(outside.dir, 'secret.txt') })
    expect(out).toMatchObject({ isError: true, text: expect.stringContaining('outside the directories') })
    const viaLink = await tools.call('Read', { file_path: p('link-out.txt') })
    expect(viaLink).toMatchObject({ isError: true, text: expect.stringContaining('resolves to') })
    expect((await tools.call('Read', { file_path: p('link-in.txt') })).isError).toBe(false)
  })

  it('additionalDirectories opens more directories', async () => {
    const wider = await openTools(tmp.dir, [[read, { additionalDirectories: [outside.dir] }]])
    try {
      expect((await wider.call('Read', { file_path: join(outside.dir, 'secret.txt') })).text).toBe('     1\tsecret')
    } finally {
      await wider.close()
    }
  })

  it('rejects invalid input through the pipeline, naming the field', async () => {
    const r = await tools.call('Read', { file_path: p('five.txt'), limit: 2.5 })
    expect(r).toMatchObject({ isError: true, text: expect.stringContaining('limit') })
  })
})
