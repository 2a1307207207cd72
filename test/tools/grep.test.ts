import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import grep from '../../mods/grep/index.js'
import { requiredLiteral } from '../../mods/grep/required-literal.js'
import { findExecutable } from '../../mods/grep/find-executable.js'
import { openTools, tempDir, type Tools } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
let js: Tools
let rg: Tools | undefined
const p = (name: string) => join(tmp.dir, name)

const FILES: Record<string, string | Buffer> = {
  '.gitignore': 'build/\n*.log\n!keep.log\n',
  'src/app.ts': 'import { helper } from "./util"\nexport function main() {\n  return helper(1)\n}\n// TODO: tidy\n',
  'src/util.ts': 'export function helper(n: number) {\n  return n + 1\n}\n',
  'src/view.tsx': 'export const View = () => <div>helper</div>\n',
  'src/nested/.gitignore': 'secret.ts\n',
  'src/nested/secret.ts': 'export const helper = "hidden by nested ignore"\n',
  'src/nested/open.ts': 'const a = 1\nconst b = 2\nconst c = 3\nconst helper = a + b\nconst d = 4\nconst e = 5\nconst f = 6\nconst g = 7\nconst helper2 = 8\n',
  'lib/tool.py': 'def helper():\n    return "Helper"\n',
  'lib/win.txt': 'first helper line\r\nsecond line\r\n',
  'build/out.js': 'helper()\n',
  'debug.log': 'helper log\n',
  'keep.log': 'helper kept\n',
  '.config/settings.json': '{ "helper": true }\n',
  '.git/HEAD': 'helper in git dir\n',
  'data.bin': Buffer.concat([Buffer.from('helper\n'), Buffer.from([0, 1, 2])]),
  'README.md': '# Helper docs\nUse helper() to add one.\n',
  'notes/blank.txt': 'a\n\nb\n',
  'notes/empty.txt': '',
  'notes/cr.txt': 'bar\rfoo\n',
  'notes/two.txt': 'x widget 1\ny widget z\n',
}

beforeAll(async () => {
  tmp = await tempDir()
  for (const [name, content] of Object.entries(FILES)) {
    await mkdir(dirname(p(name)), { recursive: true })
    await writeFile(p(name), content)
  }
  js = await openTools(tmp.dir, [[grep, { engine: 'js' }]])
  if (await findExecutable('rg')) rg = await openTools(tmp.dir, [[grep, { engine: 'rg' }]])
})
afterAll(async () => {
  await js.close()
  await rg?.close()
  await tmp.remove()
})

const files = async (input: Record<string, unknown>) => ((await js.call('Grep', input)).result as { filenames: string[] }).filenames.slice().sort()

describe('Grep (JavaScript engine)', () => {
  it('lists matching files, honouring .gitignore (nested, negated), skipping .git and binary files', async () => {
    expect(await files({ pattern: 'helper' })).toEqual([
      p('.config/settings.json'), p('README.md'), p('keep.log'), p('lib/tool.py'), p('lib/win.txt'),
      p('src/app.ts'), p('src/nested/open.ts'), p('src/util.ts'), p('src/view.tsx'),
    ])
  })

  it('filters by glob and type, with -i', async () => {
    // As in ripgrep, a glob that names files overrides ignore rules (secret.ts is ignored otherwise).
    expect(await files({ pattern: 'helper', glob: '*.{ts,tsx}' })).toEqual([p('src/app.ts'), p('src/nested/open.ts'), p('src/nested/secret.ts'), p('src/util.ts'), p('src/view.tsx')])
    expect(await files({ pattern: 'helper', type: 'py' })).toEqual([p('lib/tool.py')])
    expect(await files({ pattern: 'HELPER', '-i': true, type: 'md' })).toEqual([p('README.md')])
    expect(await files({ pattern: 'helper', glob: '!src/**' })).not.toContain(p('src/app.ts'))
  })

  it('shows content with line numbers, context and separators in ripgrep format', async () => {
    const r = await js.call('Grep', { pattern: 'helper', path: 'src/nested', output_mode: 'content', '-C': 1 })
    expect(r.text).toBe([
      `${p('src/nested/open.ts')}-3-const c = 3`,
      `${p('src/nested/open.ts')}:4:const helper = a + b`,
      `${p('src/nested/open.ts')}-5-const d = 4`,
      '--',
      `${p('src/nested/open.ts')}-8-const g = 7`,
      `${p('src/nested/open.ts')}:9:const helper2 = 8`,
    ].join('\n'))
    const single = await js.call('Grep', { pattern: 'line', path: p('lib/win.txt'), output_mode: 'content' })
    expect(single.text).toBe('1:first helper line\n2:second line')
  })

  it('counts matches per file with a total', async () => {
    const r = await js.call('Grep', { pattern: 'const', path: 'src', output_mode: 'count' })
    expect(r.result).toMatchObject({ mode: 'count', numFiles: 2, numMatches: 10 })
    expect(r.text).toContain('Found 10 total occurrences across 2 files.')
  })

  it('matches across lines in multiline mode', async () => {
    const r = await js.call('Grep', { pattern: 'helper\\(n.*?return', path: 'src', output_mode: 'content', multiline: true })
    expect(r.text).toBe(`${p('src/util.ts')}:1:export function helper(n: number) {\n${p('src/util.ts')}:2:  return n + 1`)
  })

  it('puts no match on a line past the last: an empty match after the final line break is none', async () => {
    const r = await js.call('Grep', { pattern: '$', path: 'notes/blank.txt', output_mode: 'content', multiline: true })
    expect(r.text).toBe('1:a\n2:\n3:b')
    expect((await js.call('Grep', { pattern: '\\z', path: 'notes/blank.txt', output_mode: 'count', multiline: true })).text).toBe('No matches found')
  })

  it('refuses what only a backtracking engine runs, naming the construct, as ripgrep without -P does', async () => {
    expect((await js.call('Grep', { pattern: 'helper(?= kept)' })).text).toContain('look-ahead ((?= ...) and (?! ...)) are not supported')
    expect((await js.call('Grep', { pattern: '(?<!x)helper' })).text).toContain('look-behind ((?<= ...) and (?<! ...)) are not supported')
    expect((await js.call('Grep', { pattern: '(he)lper\\1' })).text).toContain('backreferences (\\1 ...) are not supported')
  })

  it('answers a pattern that makes a backtracking engine blow up, at once', async () => {
    const { rm, writeFile } = await import('node:fs/promises')
    await writeFile(p('evil.txt'), `${'a'.repeat(40)}!\n`)
    try {
      expect((await js.call('Grep', { pattern: '^(a+)+$', path: p('evil.txt'), output_mode: 'content' })).text).toBe('No matches found')
    } finally {
      await rm(p('evil.txt'))
    }
  })

  it('passes over files without the literal every match must hold, and only then', () => {
    const cases: [string, string | undefined][] = [
      ['export (async )?function', 'function'], ['import .* from', 'import '], ['foo\\(', 'foo('], ['\\bhelper\\b', 'helper'],
      ['^const (a|b)', 'const '], ['colou?r', 'colo'], ['a|bcd', undefined], ['ab*c', undefined], ['[abc]+xyz', 'xyz'],
      ['\\cJabc', 'abc'], ['\\x41BCD', 'BCD'], ['\\u{41}xyz', 'xyz'], ['\\p{L}abc', 'abc'], ['(?<n>ab)\\k<n>cde', 'cde'], ['\\12abc', 'abc'],
      ['x{2,}yz', undefined], ['x{2,3}abcd', 'abcd'], ['ab{123}', undefined], ['[)(]abcd', 'abcd'], ['(a(b)c)defg', 'defg'], ['abc[', undefined],
    ]
    for (const [pattern, literal] of cases) expect(requiredLiteral(pattern), pattern).toBe(literal)
  })

  it('never names a literal a matching line lacks, on random patterns and texts', () => {
    let seed = 5
    const pick = <T,>(xs: readonly T[]): T => xs[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % xs.length]!
    const atoms = ['a', 'b', 'ab', 'abc', 'c', '.', '\\d', '[ab]', '[^a]', '(a|bc)', '(?:ab)', '\\.', ' ', '1', '{', '}']
    const quantifiers = ['', '', '', '?', '*', '+', '{2}', '{1,2}', '{0,3}']
    let checked = 0
    for (let n = 0; n < 20_000; n++) {
      const pattern = Array.from({ length: 1 + (n % 6) }, () => pick(atoms) + pick(quantifiers)).join('') + (n % 5 === 0 ? `|${pick(atoms)}` : '')
      let re: RegExp
      try {
        re = new RegExp(pattern)
      } catch {
        continue
      }
      const literal = requiredLiteral(pattern)
      if (literal === undefined) continue
      for (let t = 0; t < 100; t++) {
        const line = Array.from({ length: 3 + (t % 10) }, () => pick(['a', 'b', 'c', 'a', 'b', 'c', '1', '.', ' ', '{', '}'])).join('')
        if (re.test(line)) {
          expect(line.includes(literal), `${pattern} matched ${JSON.stringify(line)} without ${JSON.stringify(literal)}`).toBe(true)
          checked++
        }
      }
    }
    expect(checked).toBeGreaterThan(500)
  })

  it('reads files larger than its buffer whole, one after another', async () => {
    await mkdir(p('big'), { recursive: true })
    await writeFile(p('big/a.txt'), `${'x\n'.repeat(100_000)}needle in a\n`)
    await writeFile(p('big/b.txt'), 'needle in b\n')
    const r = await js.call('Grep', { pattern: 'needle', path: 'big', output_mode: 'content' })
    expect(r.text).toBe(`${p('big/a.txt')}:100001:needle in a\n${p('big/b.txt')}:1:needle in b`)
  })

  it('pages with head_limit and offset', async () => {
    const first = await js.call('Grep', { pattern: 'const', path: 'src/nested/open.ts', output_mode: 'content', head_limit: 3 })
    expect(first.result).toMatchObject({ numLines: 3, appliedLimit: 3 })
    expect(first.text).toContain('pass offset 3')
    const next = await js.call('Grep', { pattern: 'const', path: 'src/nested/open.ts', output_mode: 'content', head_limit: 3, offset: 3 })
    expect((next.result as any).content).toBe('4:const helper = a + b\n5:const d = 4\n6:const e = 5')
  })

  it('names an invalid pattern, and an unknown type', async () => {
    expect(await js.call('Grep', { pattern: 'foo(' })).toMatchObject({ isError: true, text: expect.stringContaining('"foo(" is not a valid regular expression') })
    expect(await js.call('Grep', { pattern: 'x', type: 'nosuchtype' })).toMatchObject({ isError: true, text: expect.stringContaining('nosuchtype') })
  })
})

const SAME_CASES: Record<string, unknown>[] = [
  { pattern: 'helper' },
  { pattern: 'helper', output_mode: 'content' },
  { pattern: 'helper', output_mode: 'content', '-n': false, '-A': 2 },
  { pattern: 'const \\w+ =', output_mode: 'content', '-B': 2, path: 'src' },
  { pattern: 'helper', output_mode: 'count' },
  { pattern: 'HELPER', '-i': true, output_mode: 'content' },
  { pattern: 'helper', glob: '*.ts', output_mode: 'content' },
  { pattern: 'helper', glob: '!*.md', output_mode: 'count' },
  { pattern: 'helper', type: 'ts', output_mode: 'count' },
  { pattern: 'return.*\\n.*\\}', multiline: true, output_mode: 'content' },
  { pattern: 'line', path: 'lib/win.txt', output_mode: 'content' },
  { pattern: 'const', output_mode: 'content', head_limit: 4, offset: 2 },
  { pattern: 'helper', glob: '*.{ts,tsx}' },
  { pattern: 'helper', path: 'src/nested', output_mode: 'content', '-C': 3 },
  { pattern: '^const (a|b)', output_mode: 'content' },
  { pattern: 'foo(' },
  // A match of the whole text across a line break is no line's match.
  { pattern: 's\\sUse' },
  { pattern: 's\\sUse', output_mode: 'count' },
  { pattern: 'line$', output_mode: 'content' },
  { pattern: '\\bhelper\\b', output_mode: 'files_with_matches' },
  // ^ and $ of a whole text also hold at a CR and after a final line break; a line's do not.
  { pattern: 'line$' },
  { pattern: '^foo' },
  { pattern: '^$' },
  { pattern: 'x*', path: 'notes' },
  // In multiline mode too: no line past the last.
  { pattern: '$', path: 'notes/blank.txt', output_mode: 'content', multiline: true },
  { pattern: '^$', path: 'notes', output_mode: 'content', multiline: true },
  // The first line holding the literal does not match; the second does.
  { pattern: 'widget [a-z]' },
  { pattern: 'widget [a-z]', output_mode: 'count' },
]

// Runs where ripgrep is on PATH; elsewhere (CI machines may lack it) each case is skipped.
describe('Grep: the JavaScript engine answers as ripgrep does', () => {
  for (const input of SAME_CASES) {
    it(`${JSON.stringify(input)}`, async (ctx) => {
      if (!rg) return ctx.skip()
      const [a, b] = await Promise.all([js.call('Grep', input), rg.call('Grep', input)])
      expect(a.isError).toBe(b.isError)
      if (a.isError) return
      expect(a.result).toEqual(b.result)
      expect(a.text).toBe(b.text)
    })
  }
})
