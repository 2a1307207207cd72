import { rm, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import memoryMod from '../../mods/memory/index.js'
import readMod from '../../mods/read/index.js'
import agentMod from '../../mods/agent/index.js'
import bashMod from '../../mods/bash/index.js'
import { runScript } from '../loop/helpers.js'
import { tempDir, texts, withOptions, writeTree } from './fixtures.js'
import { setTrust } from '../../mods/permissions/trust-store.js'

let root: string
let home: string
let repo: string
let cwd: string

beforeAll(async () => {
  root = await tempDir('memory')
  home = join(root, 'home')
  repo = join(root, 'repo')
  cwd = join(repo, 'app')
  await writeTree(root, {
    'home/.claude/CLAUDE.md': 'User memory. See @~/shared.md for more.\n',
    'home/shared.md': 'Shared from home.\n',
    'repo/.git/': '',
    'repo/CLAUDE.md': [
      'Root memory.',
      '@docs/style.md',
      'Inline code `@not/imported.md` is left alone.',
      '```',
      '@also-not.md',
      '```',
      '<!-- a note for humans only',
      'spanning two lines -->',
      'After the comment, @missing.md is imported.',
      'Mail @someone and use @types/node: neither is an import.',
    ].join('\n'),
    'repo/docs/style.md': 'Style guide. Also @../cycle-a.md\n',
    'repo/cycle-a.md': 'Cycle A, then @cycle-b.md\n',
    'repo/cycle-b.md': 'Cycle B, back to @cycle-a.md\n',
    'repo/AGENTS.md': 'Agents file.\n',
    'repo/.claude/rules/general.md': 'General rule.\n',
    'repo/app/CLAUDE.md': 'App memory.\n',
    'repo/app/CLAUDE.local.md': 'Local notes.\n',
    'repo/app/.claude/rules/ts.md': '---\npaths:\n  - "src/**/*.ts"\n---\nTypeScript rule.\n',
    'repo/app/.claude/rules/bad.md': '---\npaths: "unclosed\n---\nBad frontmatter rule.\n',
    'repo/app/sub/CLAUDE.md': 'Sub memory. @../../docs/style.md and @sub-extra.md\n',
    'repo/app/sub/sub-extra.md': 'Sub extra.\n',
    'repo/app/sub/file.txt': 'hello\n',
    'repo/app/src/x.ts': 'export const x = 1\n',
  })
})
afterAll(() => rm(root, { recursive: true, force: true }))

const memory = (extra: Record<string, unknown> = {}) => withOptions(memoryMod, { home, managedPath: false, ...extra })

/** The memory files of a rendered reminder, by the path each section names. */
const filesIn = (text: string) => [...text.matchAll(/^Contents of (\S+) \(/gm)].map((m) => m[1]!.replace(`${root}/`, ''))

describe('memory', () => {
  it("reads an added directory's memory files after the cwd's, only when CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD asks", async () => {
    await writeTree(root, { 'added/CLAUDE.md': 'Added memory.\n', 'added/CLAUDE.local.md': 'Added local.\n' })
    const added = join(root, 'added')
    const reminder = async (env: Record<string, string>) => texts((await runScript([{ reply: 'ok' }], 'hello', { cwd, mods: [memory()], additionalDirectories: [added], env })).requests[0]!.body, 0)[1]!
    expect(filesIn(await reminder({ CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD: '1' })).slice(-3)).toEqual(['repo/app/CLAUDE.local.md', 'added/CLAUDE.md', 'added/CLAUDE.local.md'])
    expect(filesIn(await reminder({})).filter((f) => f.startsWith('added/'))).toEqual([])
  })

  it('puts every memory file, broad to specific with imports after their importer, in the first user message', async () => {
    const warnings: string[] = []
    const run = await runScript([{ reply: 'ok' }], 'hello', { cwd, mods: [memory()], log: (l) => warnings.push(l) })
    const [prompt, reminder, ...rest] = texts(run.requests[0]!.body, 0)
    expect(prompt).toBe('hello')
    expect(rest).toEqual([])
    expect(reminder!.startsWith('<system-reminder>\n')).toBe(true)
    expect(filesIn(reminder!)).toEqual([
      'home/.claude/CLAUDE.md', 'home/shared.md',
      'repo/CLAUDE.md', 'repo/docs/style.md', 'repo/cycle-a.md', 'repo/cycle-b.md',
      'repo/.claude/rules/general.md',
      'repo/app/CLAUDE.md', 'repo/app/.claude/rules/bad.md', 'repo/app/CLAUDE.local.md',
    ])
    expect(reminder).toContain(`Contents of ${home}/.claude/CLAUDE.md (the user's private instructions for all projects)`)
    expect(reminder).toContain(`Contents of ${home}/shared.md (imported by ${home}/.claude/CLAUDE.md)`)
    expect(reminder).toContain(`Contents of ${cwd}/CLAUDE.local.md (the user's private instructions for this project, not checked in)`)
    expect(reminder).toMatch(/# claudeMd\n/)
    expect(reminder).toMatch(/# currentDate\nToday's date is \d{4}-\d{2}-\d{2}\./)
    // Comments are stripped; code is not scanned for imports; a missing import is noted where it was named.
    expect(reminder).not.toContain('a note for humans')
    expect(reminder).toContain('After the comment')
    expect(reminder).toContain(`@missing.md (line 9) was not imported: ${repo}/missing.md does not exist.`)
    expect(reminder).toContain('the imports form a cycle')
    // A rule with malformed frontmatter still loads its body, and the warning names the file.
    expect(reminder).toContain('Bad frontmatter rule')
    expect(warnings.filter((w) => w.includes('bad.md'))).toEqual([expect.stringMatching(/^memory: .*bad\.md: malformed frontmatter/)])
    expect(warnings.filter((w) => w.includes('@missing.md'))).toEqual([`memory: ${repo}/CLAUDE.md:9: @missing.md was not imported: ${repo}/missing.md does not exist`])
    expect(warnings.filter((w) => w.includes('cycle'))).toHaveLength(1)
  })

  it('loads nested CLAUDE.md files and paths-scoped rules when a tool touches a file they cover, once each', async () => {
    let loaded: unknown
    const probe = defineMod({ name: 'probe', uses: { memory: 'required' }, register: (on) => on('session.end', ($, e, next) => { loaded = $.capability.use('memory')?.loaded(); return next(e) }) })
    const read = (file: string) => ({ tool_use: { name: 'Read', input: { file_path: join(cwd, file) } } })
    const run = await runScript([
      { reply: [read('sub/file.txt'), read('src/x.ts')] },
      { reply: [read('sub/file.txt')] },
      { reply: 'done' },
    ], 'hello', { cwd, mods: [readMod, memory(), probe] })
    expect(run.result.result).toBe('done')
    const second = run.requests[1]!.body
    const results = second.messages[2].content
    expect(results.map((b: any) => b.type)).toEqual(['tool_result', 'tool_result', 'text', 'text'])
    const [nested, rule] = [results[2].text, results[3].text]
    expect(filesIn(nested)).toEqual(['repo/app/sub/CLAUDE.md', 'repo/app/sub/sub-extra.md'])
    expect(nested).toContain(`Memory files that apply to ${cwd}/sub/file.txt were loaded`)
    // style.md was imported by the root memory already: it is not repeated.
    expect(nested).not.toContain('Style guide')
    expect(filesIn(rule)).toEqual(['repo/app/.claude/rules/ts.md'])
    expect(rule).toContain('TypeScript rule.')
    expect(rule).not.toContain('paths:')
    // Reading the same directory again brings nothing new.
    const third = run.requests[2]!.body.messages[4].content
    expect(third.map((b: any) => b.type)).toEqual(['tool_result'])

    const records = loaded as any[]
    expect(records.filter((r) => r.load_reason === 'session_start').map((r) => r.file_path.replace(`${root}/`, ''))).toEqual([
      'home/.claude/CLAUDE.md', 'repo/CLAUDE.md', 'repo/.claude/rules/general.md',
      'repo/app/CLAUDE.md', 'repo/app/.claude/rules/bad.md', 'repo/app/CLAUDE.local.md',
    ])
    expect(records.find((r) => r.file_path === `${home}/shared.md`)).toEqual({
      file_path: `${home}/shared.md`, memory_type: 'User', load_reason: 'include', parent_file_path: `${home}/.claude/CLAUDE.md`,
    })
    expect(records.find((r) => r.file_path === `${cwd}/CLAUDE.local.md`)).toMatchObject({ memory_type: 'Local' })
    expect(records.find((r) => r.file_path === `${cwd}/sub/CLAUDE.md`)).toEqual({
      file_path: `${cwd}/sub/CLAUDE.md`, memory_type: 'Project', load_reason: 'nested_traversal', trigger_file_path: `${cwd}/sub/file.txt`,
    })
    expect(records.find((r) => r.file_path === `${cwd}/sub/sub-extra.md`)).toMatchObject({
      load_reason: 'include', parent_file_path: `${cwd}/sub/CLAUDE.md`, trigger_file_path: `${cwd}/sub/file.txt`,
    })
    expect(records.find((r) => r.file_path === `${cwd}/.claude/rules/ts.md`)).toEqual({
      file_path: `${cwd}/.claude/rules/ts.md`, memory_type: 'Project', load_reason: 'path_glob_match', globs: ['src/**/*.ts'], trigger_file_path: `${cwd}/src/x.ts`,
    })
  })

  it('loads no CLAUDE.md for a file outside cwd, even in the same repository, as Claude Code does', async () => {
    await writeTree(root, { 'repo/lib/CLAUDE.md': 'Lib memory.\n', 'repo/lib/util.txt': 'util\n' })
    const run = await runScript([
      { reply: [{ tool_use: { name: 'Read', input: { file_path: join(repo, 'lib/util.txt') } } }] },
      { reply: 'done' },
    ], 'hello', { cwd, mods: [readMod, memory()], additionalDirectories: [join(repo, 'lib')] })
    expect(run.result.result).toBe('done')
    const results = run.requests[1]!.body.messages[2].content
    expect(results[0].is_error).toBeUndefined()
    expect(results.map((b: any) => b.type)).toEqual(['tool_result'])
    expect(JSON.stringify(run.requests[1]!.body)).not.toContain('Lib memory.')
  })

  it('loads the memory of a file a Bash command printed (cat, head, tail, sed -n), not of one piped on or written', async () => {
    const dir = await tempDir('memory-bash')
    try {
      await writeTree(dir, {
        '.git/': '',
        'a/CLAUDE.md': 'A memory.\n', 'a/f.txt': 'a\n',
        'b/CLAUDE.md': 'B memory.\n', 'b/f.txt': 'b\n',
        'c/CLAUDE.md': 'C memory.\n',
      })
      const bash = (command: string) => ({ tool_use: { name: 'Bash', input: { command, description: 'run' } } })
      const run = await runScript([
        { reply: [bash('echo go && head -n 1 a/f.txt')] },
        { reply: [bash('cat b/f.txt | sort'), bash('echo c > c/new.txt')] },
        // Relative to where the shell stands: it moved into b, and stays there for the next command.
        { reply: [bash('cd b && cat f.txt')] },
        { reply: 'done' },
      ], 'hello', { cwd: dir, mods: [bashMod, memory()] })
      expect(run.result.result).toBe('done')
      const first = run.requests[1]!.body.messages[2].content
      expect(first.map((b: any) => b.type)).toEqual(['tool_result', 'text'])
      expect(filesIn(first[1].text)).toEqual([`${dir}/a/CLAUDE.md`])
      expect(first[1].text).toContain(`Memory files that apply to ${dir}/a/f.txt were loaded`)
      const second = run.requests[2]!.body.messages[4].content
      expect(second.map((b: any) => b.type)).toEqual(['tool_result', 'tool_result'])
      const third = run.requests[3]!.body.messages[6].content
      expect(filesIn(third[1].text)).toEqual([`${dir}/b/CLAUDE.md`])
      expect(third[1].text).toContain(`Memory files that apply to ${dir}/b/f.txt were loaded`)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('gives a subagent the memory files in its first message, and does not deliver them again when it touches their directories', async () => {
    const run = await runScript([
      { reply: [{ tool_use: { name: 'Agent', input: { description: 'look', prompt: 'Look at the app.' } } }] },
      { reply: [{ tool_use: { name: 'Read', input: { file_path: join(cwd, 'sub/file.txt') } } }] },
      { reply: 'seen' },
      { reply: 'done' },
    ], 'hello', { cwd, mods: [readMod, agentMod, memory()] })
    expect(run.result.result).toBe('done')
    const [prompt, reminder, ...rest] = texts(run.requests[1]!.body, 0)
    expect(prompt).toBe('Look at the app.')
    expect(rest).toEqual([])
    expect(filesIn(reminder!)).toEqual(filesIn(texts(run.requests[0]!.body, 0)[1]!))
    // The nested memory is new to it; style.md, which it imports, came with the startup files.
    const afterRead = run.requests[2]!.body.messages[2].content.filter((b: any) => b.type === 'text').map((b: any) => b.text).join('\n')
    expect(filesIn(afterRead)).toEqual(['repo/app/sub/CLAUDE.md', 'repo/app/sub/sub-extra.md'])
  })

  it('a project memory file imports nothing from outside the project (a link out included) unless externalImports or a trusted workspace; the user\'s may', async () => {
    const box = await tempDir('memory-external')
    try {
      await writeTree(box, {
        'home/.claude/CLAUDE.md': 'User memory @~/notes.md\n',
        'home/notes.md': 'User notes.\n',
        'home/secret.md': 'SECRET FROM HOME\n',
        'outside.md': 'OUTSIDE THE PROJECT\n',
        'proj/.git/': '',
        'proj/CLAUDE.md': 'Project memory.\n@~/secret.md\n@../outside.md\n@docs/inside.md\n@docs/link.md\n',
        'proj/docs/inside.md': 'Inside doc.\n',
      })
      await symlink(join(box, 'outside.md'), join(box, 'proj/docs/link.md'))
      const cwd = join(box, 'proj')
      const warnings: string[] = []
      const mod = (extra: Record<string, unknown>) => withOptions(memoryMod, { home: join(box, 'home'), managedPath: false, currentDate: false, ...extra })
      const closed = texts((await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [mod({})], log: (l) => warnings.push(l) })).requests[0]!.body, 0)[1]!
      expect(closed).toContain('User notes.')
      expect(closed).toContain('Inside doc.')
      expect(closed).not.toContain('SECRET FROM HOME')
      expect(closed).not.toContain('OUTSIDE THE PROJECT')
      expect(closed).toContain(`@~/secret.md (line 2) was not imported: ${join(box, 'home/secret.md')} is outside the project`)
      expect(warnings.filter((w) => w.includes('externalImports'))).toHaveLength(3)
      const open = texts((await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [mod({ externalImports: true })] })).requests[0]!.body, 0)[1]!
      expect(open).toContain('SECRET FROM HOME')
      expect(open).toContain('OUTSIDE THE PROJECT')
      // A trusted workspace is the one-time approval Claude Code asks for.
      const trustStore = join(box, 'trusted.json')
      await setTrust(trustStore, cwd, true)
      const trusted = texts((await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [mod({ trustStore })] })).requests[0]!.body, 0)[1]!
      expect(trusted).toContain('SECRET FROM HOME')
      expect(trusted).toContain('OUTSIDE THE PROJECT')
    } finally {
      await rm(box, { recursive: true, force: true })
    }
  })

  it('delivers memory only in the first user message of a session', async () => {
    const { query } = await import('../../entry.js')
    const { startFakeAnthropic } = await import('../helpers/fake-anthropic.js')
    const server = await startFakeAnthropic({ script: [{ reply: 'one' }, { reply: 'two' }] })
    async function* prompts() {
      for (const text of ['first', 'second']) yield { type: 'user' as const, message: { role: 'user' as const, content: text }, parent_tool_use_id: null, session_id: '' }
    }
    try {
      for await (const _ of query({ prompt: prompts(), options: { bare: true, cwd, mods: [memory()], env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test' } } })) { /* drain */ }
    } finally {
      await server.close()
    }
    const last = server.requests[1]!.body as any
    expect(texts(last, 0)).toHaveLength(2)
    expect(texts(last, 2)).toEqual(['second'])
  })

  it('options turn sources and the date off; outside a repository only cwd is read', async () => {
    const run = await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [memory({ sources: ['project'], currentDate: false })] })
    const reminder = texts(run.requests[0]!.body, 0)[1]!
    expect(filesIn(reminder)).not.toContain('home/.claude/CLAUDE.md')
    expect(filesIn(reminder)).not.toContain('repo/app/CLAUDE.local.md')
    expect(reminder).not.toContain('# currentDate')
    const plain = await tempDir('memory-plain')
    try {
      await writeTree(plain, { 'CLAUDE.md': 'Plain memory.\n' })
      const outside = await runScript([{ reply: 'ok' }], 'hi', { cwd: plain, mods: [memory()] })
      expect(filesIn(texts(outside.requests[0]!.body, 0)[1]!).filter((f) => !f.startsWith('home/'))).toEqual([`${plain}/CLAUDE.md`])
    } finally {
      await rm(plain, { recursive: true, force: true })
    }
  })

  it('drops the frontmatter of every memory file, imported and local ones too, as Claude Code does', async () => {
    const dir = await tempDir('memory-frontmatter')
    try {
      await writeTree(dir, {
        'CLAUDE.md': '---\ndescription: for tools\n---\nTop body. @imp.md\n',
        'imp.md': '---\nfoo: bar\n---\nImported body.\n',
        'CLAUDE.local.md': '---\nnot: [valid\n---\nLocal body.\n',
      })
      const warnings: string[] = []
      const run = await runScript([{ reply: 'ok' }], 'hi', { cwd: dir, mods: [memory()], log: (l) => warnings.push(l) })
      const reminder = texts(run.requests[0]!.body, 0)[1]!
      expect(reminder).toContain('Top body.')
      expect(reminder).toContain('Imported body.')
      expect(reminder).toContain('Local body.')
      expect(reminder).not.toMatch(/description:|foo: bar|not: \[valid/)
      expect(warnings.filter((w) => w.includes(dir))).toEqual([])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('imports a file named without an extension (@Makefile, @docs/LICENSE), and passes over a handle or package name in silence', async () => {
    const dir = await tempDir('memory-bare')
    try {
      await writeTree(dir, {
        'CLAUDE.md': 'Build with @Makefile, license in @docs/LICENSE.\nAsk @someone, use @scope/pkg, see @docs.\n',
        'Makefile': 'Makefile rules.\n',
        'docs/LICENSE': 'License text.\n',
      })
      const warnings: string[] = []
      const run = await runScript([{ reply: 'ok' }], 'hi', { cwd: dir, mods: [memory()], log: (l) => warnings.push(l) })
      const reminder = texts(run.requests[0]!.body, 0)[1]!
      expect(filesIn(reminder).filter((f) => f.startsWith(dir)).map((f) => f.slice(dir.length + 1))).toEqual(['CLAUDE.md', 'Makefile', 'docs/LICENSE'])
      expect(reminder).not.toContain('(modloop:')
      expect(warnings.filter((w) => w.includes(dir))).toEqual([])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('reads AGENTS.md only where no CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md of the same directory says anything', async () => {
    const dir = await tempDir('memory-agents')
    try {
      await writeTree(dir, {
        'home/.claude/CLAUDE.md': 'User memory.\n',
        'home/.claude/AGENTS.md': 'User agents.\n',
        'top/AGENTS.md': 'Top agents.\n',
        'top/.claude/rules/r.md': 'Top rule.\n',
        'top/both/CLAUDE.md': 'Both memory.\n',
        'top/both/AGENTS.md': 'Both agents.\n',
        'top/both/empty/CLAUDE.md': '',
        'top/both/empty/AGENTS.md': 'Empty agents.\n',
        'top/both/empty/local/CLAUDE.local.md': 'Local memory.\n',
        'top/both/empty/local/AGENTS.md': 'Local agents.\n',
      })
      const cwd = join(dir, 'top/both/empty/local')
      const run = await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [withOptions(memoryMod, { home: join(dir, 'home'), managedPath: false })] })
      const reminder = texts(run.requests[0]!.body, 0)[1]!
      expect(filesIn(reminder).filter((f) => f.startsWith(dir)).map((f) => f.slice(dir.length + 1))).toEqual([
        'home/.claude/CLAUDE.md', 'top/.claude/rules/r.md', 'top/AGENTS.md', 'top/both/CLAUDE.md', 'top/both/empty/AGENTS.md', 'top/both/empty/local/CLAUDE.local.md',
      ])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('follows imports 4 hops deep by default, as the spec and Claude Code do', async () => {
    const deep = await tempDir('memory-default-depth')
    try {
      await writeTree(deep, Object.fromEntries([['CLAUDE.md', 'Top @d1.md\n'], ...Array.from({ length: 6 }, (_, i) => [`d${i + 1}.md`, `Depth ${i + 1} @d${i + 2}.md\n`])]))
      const run = await runScript([{ reply: 'ok' }], 'hi', { cwd: deep, mods: [memory()] })
      const reminder = texts(run.requests[0]!.body, 0)[1]!
      expect(filesIn(reminder).filter((f) => f.startsWith(deep)).map((f) => f.slice(deep.length + 1))).toEqual(['CLAUDE.md', 'd1.md', 'd2.md', 'd3.md', 'd4.md'])
      expect(reminder).toContain('imports nest at most 4 deep')
    } finally {
      await rm(deep, { recursive: true, force: true })
    }
  })

  it('follows imports at most maxImportDepth hops, noting where it stopped', async () => {
    const deep = await tempDir('memory-deep')
    try {
      await writeTree(deep, Object.fromEntries([['CLAUDE.md', 'Top @d1.md\n'], ...Array.from({ length: 6 }, (_, i) => [`d${i + 1}.md`, `Depth ${i + 1} @d${i + 2}.md\n`])]))
      const run = await runScript([{ reply: 'ok' }], 'hi', { cwd: deep, mods: [memory({ maxImportDepth: 3 })] })
      const reminder = texts(run.requests[0]!.body, 0)[1]!
      expect(filesIn(reminder).filter((f) => f.startsWith(deep)).map((f) => f.slice(deep.length + 1))).toEqual(['CLAUDE.md', 'd1.md', 'd2.md', 'd3.md'])
      expect(reminder).toContain('Depth 3 @d4.md\n\n(modloop: @d4.md (line 1) was not imported: imports nest at most 3 deep.)')
    } finally {
      await rm(deep, { recursive: true, force: true })
    }
  })
})
