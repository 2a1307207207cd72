import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SDKMessage } from '../../core/loop/messages.js'
import { VERSION } from '../../core/version.js'
import { setTrust, trustStorePath } from '../../mods/permissions/trust-store.js'
import { statusLines } from '../../mods/terminal-ui/status-command.js'
import { displayName, StatusFacts } from '../../mods/terminal-ui/status-input.js'
import { readSettingsEnv } from '../../mods/settings-env/read-env.js'

const place = { sessionId: 's-1', transcriptPath: '/t/s-1.jsonl', projectDir: '/work/app', addedDirs: ['/work/lib'] }
const usage = (input: number, created: number, read: number, output: number) =>
  ({ input_tokens: input, cache_creation_input_tokens: created, cache_read_input_tokens: read, output_tokens: output })
const assistant = (u: ReturnType<typeof usage>, parent: string | null = null) =>
  ({ type: 'assistant', parent_tool_use_id: parent, message: { content: [], usage: u } }) as unknown as SDKMessage

describe('the JSON a statusLine command reads', () => {
  it('names the session, model, folders and style before any turn, with no usage yet', () => {
    const facts = new StatusFacts(place)
    facts.onMessage({ type: 'system', subtype: 'init', model: 'claude-sonnet-4-5', cwd: '/work/app/sub', output_style: 'Explanatory' } as unknown as SDKMessage)
    const input = facts.input()
    expect(input).toMatchObject({
      session_id: 's-1', transcript_path: '/t/s-1.jsonl', cwd: '/work/app/sub', version: VERSION,
      model: { id: 'claude-sonnet-4-5', display_name: 'Sonnet 4.5' },
      workspace: { current_dir: '/work/app/sub', project_dir: '/work/app', added_dirs: ['/work/lib'] },
      output_style: { name: 'Explanatory' },
      cost: { total_cost_usd: 0, total_api_duration_ms: 0, total_lines_added: 0, total_lines_removed: 0 },
      context_window: { total_input_tokens: 0, total_output_tokens: 0, context_window_size: 200_000, current_usage: null, used_percentage: null, remaining_percentage: null },
      exceeds_200k_tokens: false,
    })
    expect(typeof (input.cost as { total_duration_ms: unknown }).total_duration_ms).toBe('number')
  })

  it("counts the main conversation's requests, not a subagent's, and takes cost and API time from the result", () => {
    const facts = new StatusFacts(place)
    facts.onMessage({ type: 'system', subtype: 'init', model: 'claude-sonnet-4-5', cwd: '/work/app' } as unknown as SDKMessage)
    expect(facts.onMessage(assistant(usage(10, 20_000, 2_000, 50)))).toBe(true)
    facts.onMessage(assistant(usage(5, 0, 0, 7), 'toolu_1'))
    facts.onMessage({ type: 'result', total_cost_usd: 0.25, duration_api_ms: 1234 } as unknown as SDKMessage)
    const input = facts.input()
    expect(input.cost).toMatchObject({ total_cost_usd: 0.25, total_api_duration_ms: 1234 })
    expect(input.context_window).toEqual({
      total_input_tokens: 22_010, total_output_tokens: 50, context_window_size: 200_000,
      current_usage: usage(10, 20_000, 2_000, 50), used_percentage: 11, remaining_percentage: 89,
    })
  })

  it('says when the context passed 200k tokens', () => {
    const facts = new StatusFacts(place)
    facts.onMessage({ type: 'system', subtype: 'init', model: 'claude-opus-4-7', cwd: '/w' } as unknown as SDKMessage)
    facts.onMessage(assistant(usage(0, 0, 200_500, 10)))
    expect(facts.input()).toMatchObject({ exceeds_200k_tokens: true, context_window: { context_window_size: 1_000_000, used_percentage: 20 } })
  })

  it('gives models their short names', () => {
    expect(displayName('claude-opus-4-1-20250805')).toBe('Opus 4.1')
    expect(displayName('claude-haiku-4-5')).toBe('Haiku 4.5')
    expect(displayName('claude-opus-4-7[1m]')).toBe('Opus 4.7 (1M context)')
    expect(displayName('my-proxy-model')).toBe('my-proxy-model')
  })
})

describe('what the terminal draws of the output', () => {
  it('keeps every line and its colours, drops cursor moves, control characters and trailing blank lines', () => {
    expect(statusLines('one\n\u001b[31mred\u001b[0m\r\n\u001b[2Jtwo\u0007\tx\n\n')).toEqual(['one', '\u001b[31mred\u001b[0m', 'two  x'])
    expect(statusLines('')).toEqual([])
  })
})

async function settingsOf(files: { user?: unknown; project?: unknown; local?: unknown; managed?: unknown }) {
  const base = await mkdtemp(join(tmpdir(), 'modloop-statusline-'))
  const cwd = join(base, 'project')
  const home = join(base, 'home')
  const managedDir = join(base, 'managed')
  const write = async (file: string, json: unknown) => {
    await mkdir(join(file, '..'), { recursive: true })
    await writeFile(file, JSON.stringify(json))
  }
  await mkdir(cwd, { recursive: true })
  if (files.user) await write(join(home, '.claude', 'settings.json'), files.user)
  if (files.project) await write(join(cwd, '.claude', 'settings.json'), files.project)
  if (files.local) await write(join(cwd, '.claude', 'settings.local.json'), files.local)
  if (files.managed) await write(join(managedDir, 'managed-settings.json'), files.managed)
  const env = { HOME: home, MODLOOP_HOME: home }
  const read = async () => {
    const r = await readSettingsEnv({ cwd, places: { home, managedDir }, flags: {}, env })
    return { setting: r.statusLine, warnings: r.warnings }
  }
  return { cwd, env, home, read }
}

const line = (command: string, more: Record<string, unknown> = {}) => ({ statusLine: { type: 'command', command, ...more } })

describe('which statusLine a session runs', () => {
  it("the user's, with its padding and refresh interval", async () => {
    const { read, home } = await settingsOf({ user: line('mine.sh', { padding: 2, refreshInterval: 5 }) })
    expect((await read()).setting).toEqual({ command: 'mine.sh', padding: 2, refreshInterval: 5, file: join(home, '.claude', 'settings.json') })
  })

  it("a project's only in a trusted workspace; the local file wins over the project's", async () => {
    const { read, cwd, env } = await settingsOf({ user: line('user.sh'), project: line('project.sh'), local: line('local.sh') })
    const untrusted = await read()
    expect(untrusted.setting?.command).toBe('user.sh')
    expect(untrusted.warnings.join('\n')).toContain('this workspace is not trusted, so the statusLine of')
    await setTrust(trustStorePath({}, env), cwd, true)
    expect((await read()).setting?.command).toBe('local.sh')
  })

  it('disableAllHooks turns it off in managed settings, and narrows it to the managed one elsewhere', async () => {
    expect((await (await settingsOf({ user: line('user.sh'), managed: { disableAllHooks: true, ...line('org.sh') } })).read()).setting).toBeUndefined()
    expect((await (await settingsOf({ user: { disableAllHooks: true, ...line('user.sh') } })).read()).setting).toBeUndefined()
    expect((await (await settingsOf({ user: { disableAllHooks: true, ...line('user.sh') }, managed: line('org.sh') })).read()).setting?.command).toBe('org.sh')
  })

  it('allowManagedHooksOnly leaves only a managed one; managed wins over every other source', async () => {
    expect((await (await settingsOf({ user: line('user.sh'), managed: { allowManagedHooksOnly: true } })).read()).setting).toBeUndefined()
    expect((await (await settingsOf({ user: line('user.sh'), managed: line('org.sh') })).read()).setting?.command).toBe('org.sh')
  })

  it('a malformed one is reported and skipped', async () => {
    const r = await (await settingsOf({ user: { statusLine: { type: 'static', text: 'x' } } })).read()
    expect(r.setting).toBeUndefined()
    expect(r.warnings.join('\n')).toContain('"statusLine" must be { "type": "command", "command": "..." }')
  })
})
