import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, type CliRun } from '../helpers/cli.js'
import { systemText } from '../helpers/system-text.js'
import { writeToolsPlugin, writeTree } from './fixture.js'

let dir: string
let project: string
let plugin: string
const env = () => ({ HOME: join(dir, 'home'), CLAUDE_CONFIG_DIR: '', MODLOOP_HOME: join(dir, 'modloop-home') })
const initOf = (out: string) => out.trim().split('\n').map((l) => JSON.parse(l)).find((m) => m.subtype === 'init')
const systemOf = (r: CliRun, i = 0) => systemText(r.requests[i]!.body as { system?: unknown })
const streamJson = ['--output-format', 'stream-json', '--verbose']
const settings = (json: unknown) => writeTree(project, { '.claude/settings.json': JSON.stringify(json) })

const TERSE = '---\nname: terse\ndescription: Short answers\n---\nAnswer in one line, no preamble.\n'
const TUTOR = '---\ndescription: Explains as it codes\nkeep-coding-instructions: true\n---\nAfter each change, explain why in two sentences.\n'

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-styles-')))
  project = join(dir, 'project')
  plugin = join(dir, 'tools')
  await writeTree(project, { 'README.md': 'a project\n' })
  await writeToolsPlugin(plugin, { 'output-styles/terse.md': TERSE, 'output-styles/tutor.md': TUTOR })
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe("a plugin's output styles", () => {
  it('settings outputStyle "tools:terse" adds the style to the system prompt, and init names it', async () => {
    await settings({ outputStyle: 'tools:terse' })
    const r = await runCli(['-p', 'hi', '--plugin-dir', plugin, ...streamJson], { script: [{ reply: 'ok' }], cwd: project, env: env() })
    expect(r.code).toBe(0)
    expect(r.err).not.toMatch(/warn|MODLOOP_ERR/i)
    expect(initOf(r.out).output_style).toBe('tools:terse')
    const system = systemOf(r)
    expect(system).toContain('# Output style: tools:terse\n\nAnswer in one line, no preamble.')
    // After the sections mods add (the skill listing), as Claude Code appends it.
    expect(system.indexOf('Answer in one line')).toBeGreaterThan(system.indexOf('tools:changelog'))
    // The prompt reminds the model of the style in force.
    expect(JSON.stringify((r.requests[0]!.body as { messages: unknown[] }).messages.at(-1))).toContain('The tools:terse output style is in force: keep following its instructions.')
  })

  it('with the preset prompt, a style drops the concise-output section, and the coding section unless keep-coding-instructions', async () => {
    const { query } = await import('../../index.js')
    const run = async (style: string) => {
      await settings({ outputStyle: style })
      const script = [{ reply: 'ok' }]
      const { startFakeAnthropic } = await import('../helpers/fake-anthropic.js')
      const server = await startFakeAnthropic({ script })
      try {
        const options = {
          cwd: project, env: { ...env(), ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test' },
          systemPrompt: { type: 'preset' as const, preset: 'claude_code' as const }, plugins: [{ type: 'local' as const, path: plugin }],
        }
        for await (const m of query({ prompt: 'hi', options })) void m
        return systemText(server.requests[0]!.body as { system?: unknown })
      } finally {
        await server.close()
      }
    }
    const plain = await run('default')
    expect(plain).toContain('Be concise.')
    expect(plain).toContain('read the code before changing it')
    const terse = await run('tools:terse')
    expect(terse).not.toContain('Be concise.')
    expect(terse).not.toContain('read the code before changing it')
    expect(terse).toContain('Answer in one line, no preamble.')
    const tutor = await run('tools:tutor')
    expect(tutor).not.toContain('Be concise.')
    expect(tutor).toContain('read the code before changing it')
    expect(tutor).toContain('After each change, explain why in two sentences.')
  })

  it("a subagent keeps its own prompt: the style is the main conversation's", async () => {
    await settings({ outputStyle: 'tools:terse' })
    const script = [
      { reply: [{ tool_use: { name: 'Agent', input: { description: 'look', prompt: 'look around', subagent_type: 'general-purpose', run_in_background: false } } }] },
      { reply: 'found it' },
      { reply: 'done' },
    ]
    const r = await runCli(['-p', 'go', '--plugin-dir', plugin], { script, cwd: project, env: env() })
    expect(r.code).toBe(0)
    expect(systemOf(r, 0)).toContain('Answer in one line')
    expect(systemOf(r, 1)).not.toContain('Answer in one line')
  })

  it('/output-style lists every style with where it came from, the one in force marked, and makes no request', async () => {
    await settings({ outputStyle: 'terse' })
    await writeTree(project, { '.claude/output-styles/reviewer.md': '---\ndescription: Findings first\n---\nList findings before the summary.\n' })
    const r = await runCli(['-p', '/output-style', '--plugin-dir', plugin], { script: [], cwd: project, env: env() })
    expect(r.code).toBe(0)
    expect(r.requests).toHaveLength(0)
    // The short name reaches the plugin's style while no other has it.
    expect(r.out).toContain('* tools:terse (plugin tools) - Short answers')
    expect(r.out).toContain('  tools:tutor (plugin tools) - Explains as it codes')
    expect(r.out).toContain('  reviewer (project) - Findings first')
    expect(r.out).toContain('  default (modloop)')
    expect(r.out).toContain(`outputStyle "terse" is set in ${join(project, '.claude', 'settings.json')}`)
  })
})

describe('choosing a style', () => {
  it('local settings win over project settings; user and project styles load too', async () => {
    await writeTree(project, {
      '.claude/settings.json': JSON.stringify({ outputStyle: 'tools:terse' }),
      '.claude/settings.local.json': JSON.stringify({ outputStyle: 'Reviewer' }),
    })
    await writeTree(join(dir, 'home'), { '.claude/output-styles/mine.md': 'Mine.\n' })
    const r = await runCli(['-p', 'hi', '--plugin-dir', plugin, ...streamJson], { script: [{ reply: 'ok' }], cwd: project, env: env() })
    // Any case matches when no style has the exact name.
    expect(initOf(r.out).output_style).toBe('reviewer')
    expect(systemOf(r)).toContain('List findings before the summary.')
    expect(systemOf(r)).not.toContain('Answer in one line')
    await rm(join(project, '.claude', 'settings.local.json'))
  })

  it('a name no style has is a warning naming the settings file; the default prompt applies', async () => {
    await settings({ outputStyle: 'Explanatory' })
    const r = await runCli(['-p', 'hi', '--plugin-dir', plugin, ...streamJson], { script: [{ reply: 'ok' }], cwd: project, env: env() })
    expect(r.code).toBe(0)
    expect(r.err).toContain(`${join(project, '.claude', 'settings.json')}: outputStyle "Explanatory" names no output style`)
    expect(r.err).toContain('not part of modloop')
    expect(initOf(r.out).output_style).toBe('default')
    expect(systemOf(r)).not.toContain('Output style')
  })

  it("the manifest's outputStyles paths replace output-styles/; a broken style file is a warning naming it", async () => {
    const other = join(dir, 'styled')
    await writeToolsPlugin(other, {
      '.claude-plugin/plugin.json': JSON.stringify({ name: 'styled', outputStyles: ['./styles/', './extra/formal.md'] }),
      'output-styles/ignored.md': 'Not read.\n',
      'styles/plain.md': 'Plain words.\n',
      'styles/empty.md': '---\nname: empty\n---\n',
      'extra/formal.md': '---\nname: formal\nkeep-coding-instructions: maybe\n---\nWrite formally.\n',
    })
    await settings({ outputStyle: 'styled:formal' })
    const r = await runCli(['-p', '/output-style', '--plugin-dir', other], { script: [], cwd: project, env: env() })
    expect(r.out).toContain('* styled:formal (plugin styled)')
    expect(r.out).toContain('  styled:plain (plugin styled)')
    expect(r.out).not.toContain('styled:ignored')
    expect(r.err).toContain(`${join(other, 'styles', 'empty.md')}: an output style with no instructions; skipped`)
    expect(r.err).toContain(`${join(other, 'extra', 'formal.md')}: frontmatter field "keep-coding-instructions" ignored`)
  })
})
