import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isHooksError } from '../../hooks-runner/errors.js'
import { loadHookSources, type LoadHookSourcesOptions } from '../../hooks-runner/load-sources.js'
import { parseHooks } from '../../hooks-runner/parse-hooks.js'
import { runHooks } from '../../hooks-runner/run-hooks.js'
import { cmd, group, projectSource, tempDir, write } from './helpers.js'

const hooksFile = (command: string, extra: object = {}) => ({ hooks: group('Stop', [cmd(command)]), ...extra })

/** A home and a git project with its `.claude` dirs, and a managed-settings dir. */
async function layout() {
  const root = await tempDir()
  const home = join(root, 'home')
  const project = join(root, 'repo')
  const managed = join(root, 'managed')
  for (const d of [join(home, '.claude'), join(project, '.claude'), join(project, '.git'), join(managed, 'managed-settings.d')]) await mkdir(d, { recursive: true })
  const options = (more: Partial<LoadHookSourcesOptions> = {}): LoadHookSourcesOptions =>
    ({ cwd: project, home, projectDir: project, managedDir: managed, env: {}, ...more })
  return { root, home, project, managed, options }
}

describe('hooks config schema (spec §1.1, §1.6)', () => {
  it('tolerates unknown fields with a warning naming the file and path', () => {
    const parsed = parseHooks({ PreToolUse: [{ matcher: 'Bash', comment: 'x', hooks: [{ type: 'command', command: 'a', colour: 'red' }] }] }, projectSource())
    expect(parsed.errors).toEqual([])
    expect(parsed.groups[0]!.handlers).toHaveLength(1)
    expect(parsed.warnings.map((w) => [w.code, w.path])).toEqual([
      ['HOOKS_WARN_UNKNOWN_FIELD', 'hooks.PreToolUse[0].comment'],
      ['HOOKS_WARN_UNKNOWN_FIELD', 'hooks.PreToolUse[0].hooks[0].colour'],
    ])
  })

  it('rejects wrong types with HOOKS_ERR_CONFIG naming file and key path; siblings still load', () => {
    const parsed = parseHooks({
      PreToolUse: [
        { matcher: ['Bash'], hooks: [cmd('a')] },
        { hooks: [cmd('b', { timeout: '30' }), { type: 'command', args: ['x'] }, { type: 'shell', command: 'c' }, cmd('ok'), { type: 'http', url: 'ftp://x' }] },
      ],
      postToolUse: [],
      Stop: { hooks: [] },
    }, projectSource('/p/.claude/settings.json'))
    const where = parsed.errors.map((e) => [e.code, e.path, e.file])
    expect(where).toEqual([
      ['HOOKS_ERR_CONFIG', 'hooks.PreToolUse[0].matcher', '/p/.claude/settings.json'],
      ['HOOKS_ERR_CONFIG', 'hooks.PreToolUse[1].hooks[0].timeout', '/p/.claude/settings.json'],
      ['HOOKS_ERR_CONFIG', 'hooks.PreToolUse[1].hooks[1].command', '/p/.claude/settings.json'],
      ['HOOKS_ERR_CONFIG', 'hooks.PreToolUse[1].hooks[2].type', '/p/.claude/settings.json'],
      ['HOOKS_ERR_CONFIG', 'hooks.PreToolUse[1].hooks[4].url', '/p/.claude/settings.json'],
      ['HOOKS_ERR_CONFIG', 'hooks.Stop', '/p/.claude/settings.json'],
    ])
    expect(parsed.errors[1]!.message).toMatch(/^\/p\/\.claude\/settings\.json: hooks\.PreToolUse\[1\]\.hooks\[0\]\.timeout: .*expected number/)
    expect(parsed.warnings).toContainEqual(expect.objectContaining({ code: 'HOOKS_WARN_UNKNOWN_EVENT', path: 'hooks.postToolUse' }))
    expect(parsed.groups.flatMap((g) => g.handlers.map((h) => (h.config as { command: string }).command))).toEqual(['ok'])
  })

  it('accepts every documented field, plus onError and sequential', () => {
    const parsed = parseHooks({
      PreToolUse: [{ matcher: 'Bash', sequential: true, hooks: [
        cmd('a', { timeout: 5, async: false, asyncRewake: false, shell: 'bash', statusMessage: 's', once: true, if: 'Bash(git *)', onError: 'deny', args: ['x'] }),
        { type: 'http', url: 'https://h.example/x', headers: { A: 'b' }, allowedEnvVars: ['T'], timeout: 3 },
        { type: 'mcp_tool', server: 's', tool: 't', input: { a: 1 } },
        { type: 'prompt', prompt: 'p', model: 'm', continueOnBlock: true },
        { type: 'agent', prompt: 'p', model: 'm', timeout: 9 },
      ] }],
    }, projectSource())
    expect(parsed.errors).toEqual([])
    expect(parsed.warnings).toEqual([])
    expect(parsed.groups[0]).toMatchObject({ sequential: true, matcher: 'Bash' })
  })

  it('lints shell-form commands: user_config is refused, backslash paths and spaced exec names warn', () => {
    const parsed = parseHooks({ Stop: [{ hooks: [cmd('run ${user_config.token}'), cmd('C:\\Users\\me\\hook.sh'), cmd('my tool', { args: [] })] }] }, projectSource())
    expect(parsed.errors.map((e) => e.path)).toEqual(['hooks.Stop[0].hooks[0].command'])
    expect(parsed.warnings.map((w) => w.code)).toEqual(['HOOKS_WARN_WINDOWS_PATH', 'HOOKS_WARN_EXEC_NAME'])
  })
})

describe('loadHookSources (spec §1.2, §1.3)', () => {
  it('reads every source in settings order and remembers each handler\'s file', async () => {
    const l = await layout()
    await write(join(l.managed, 'managed-settings.json'), hooksFile('managed'))
    await write(join(l.managed, 'managed-settings.d', '20-b.json'), hooksFile('managed-d-b'))
    await write(join(l.managed, 'managed-settings.d', '10-a.json'), hooksFile('managed-d-a'))
    await write(join(l.managed, 'managed-settings.d', '.hidden.json'), hooksFile('hidden'))
    await write(join(l.home, '.claude', 'settings.json'), { ...hooksFile('user'), model: 'other keys are fine' })
    await write(join(l.project, '.claude', 'settings.json'), hooksFile('project'))
    await write(join(l.project, '.claude', 'settings.local.json'), hooksFile('local'))
    await write(join(l.root, 'extra.json'), hooksFile('cli-file'))
    const loaded = await loadHookSources(l.options({
      settingsFiles: ['../extra.json', JSON.stringify(hooksFile('cli-inline'))],
      extra: [{ source: 'plugin:fmt@market', hooks: group('Stop', [cmd('plugin')]), pluginRoot: '/opt/fmt' }],
    }))
    expect(loaded.errors).toEqual([])
    expect(loaded.config.handlers.map((h) => h.name)).toEqual(['managed', 'managed-d-a', 'managed-d-b', 'user', 'project', 'local', 'cli-file', 'cli-inline', 'plugin'])
    expect(loaded.config.handlers.map((h) => h.source.kind)).toEqual(['managed', 'managed', 'managed', 'user', 'project', 'local', 'cli', 'cli', 'extra'])
    expect(loaded.config.handlers[4]!.source).toMatchObject({ file: join(l.project, '.claude', 'settings.json'), label: 'Project Settings' })
    expect(loaded.config.handlers[8]!.source).toMatchObject({ file: 'plugin:fmt@market', label: 'Plugin Hooks', pluginRoot: '/opt/fmt' })
    const r = await runHooks('Stop', {}, { config: loaded.config, projectDir: l.project })
    expect(r.records[4]!.source.file).toBe(join(l.project, '.claude', 'settings.json'))
  })

  it('a file with bad JSON is reported by name; the other sources still load', async () => {
    const l = await layout()
    await write(join(l.home, '.claude', 'settings.json'), '{ "hooks": { "Stop": [ }')
    await write(join(l.project, '.claude', 'settings.json'), hooksFile('project'))
    const loaded = await loadHookSources(l.options({ settingsFiles: ['missing.json'] }))
    expect(loaded.errors.map((e) => e.code)).toEqual(['HOOKS_ERR_SETTINGS_JSON', 'HOOKS_ERR_SETTINGS_READ'])
    expect(loaded.errors[0]).toMatchObject({ file: join(l.home, '.claude', 'settings.json') })
    expect(loaded.errors[0]!.message).toContain(join(l.home, '.claude', 'settings.json'))
    expect(isHooksError(loaded.errors[0])).toBe(true)
    expect(loaded.config.handlers.map((h) => h.name)).toEqual(['project'])
  })

  it('identical handlers of several settings files run once; a plugin copy runs again', async () => {
    const l = await layout()
    await write(join(l.home, '.claude', 'settings.json'), hooksFile('echo same'))
    await write(join(l.project, '.claude', 'settings.json'), hooksFile('echo same'))
    const loaded = await loadHookSources(l.options({ extra: [{ source: 'plugin:x', hooks: group('Stop', [cmd('echo same')]) }] }))
    const r = await runHooks('Stop', {}, { config: loaded.config, projectDir: l.project })
    expect(r.records.map((x) => x.source.kind)).toEqual(['user', 'extra'])
  })

  it('disableAllHooks follows settings precedence; managed disables everything', async () => {
    const l = await layout()
    await write(join(l.managed, 'managed-settings.json'), hooksFile('managed'))
    await write(join(l.home, '.claude', 'settings.json'), hooksFile('user', { disableAllHooks: true }))
    await write(join(l.project, '.claude', 'settings.json'), hooksFile('project', { disableAllHooks: false }))
    const on = await loadHookSources(l.options())
    expect(on.disabled.all || on.disabled.managedOnly).toBe(false)
    expect(on.config.handlers).toHaveLength(3)

    const off = await loadHookSources(l.options({ settingsFiles: ['{"disableAllHooks": true}'], extra: [{ source: 'plugin:x', hooks: group('Stop', [cmd('p')]) }] }))
    expect(off.disabled).toMatchObject({ all: false, managedOnly: true, by: '<inline --settings>' })
    expect(off.config.handlers.map((h) => h.name)).toEqual(['managed'])
    expect(off.warnings.filter((w) => w.code === 'HOOKS_WARN_DISABLED')).toHaveLength(2)

    await write(join(l.managed, 'managed-settings.json'), hooksFile('managed', { disableAllHooks: true }))
    const all = await loadHookSources(l.options())
    expect(all.disabled.all).toBe(true)
    expect(all.config.handlers).toEqual([])
  })

  it('allowManagedHooksOnly keeps managed hooks only; a key of the wrong type is an error and ignored', async () => {
    const l = await layout()
    await write(join(l.managed, 'managed-settings.json'), hooksFile('managed', { allowManagedHooksOnly: true }))
    await write(join(l.home, '.claude', 'settings.json'), hooksFile('user', { disableAllHooks: 'yes' }))
    const loaded = await loadHookSources(l.options())
    expect(loaded.config.handlers.map((h) => h.name)).toEqual(['managed'])
    expect(loaded.errors).toContainEqual(expect.objectContaining({ code: 'HOOKS_ERR_CONFIG', path: 'disableAllHooks' }))
  })

  it('from a subdirectory: local settings come from the git root, shared settings only with a warning or opt-in', async () => {
    const l = await layout()
    const sub = join(l.project, 'packages', 'a')
    await mkdir(sub, { recursive: true })
    await write(join(l.project, '.claude', 'settings.json'), hooksFile('root-shared'))
    await write(join(l.project, '.claude', 'settings.local.json'), hooksFile('root-local'))
    const plain = await loadHookSources(l.options({ projectDir: sub, cwd: sub }))
    expect(plain.config.handlers.map((h) => h.name)).toEqual(['root-local'])
    expect(plain.warnings).toContainEqual(expect.objectContaining({ code: 'HOOKS_WARN_NOT_LOADED' }))
    const walked = await loadHookSources(l.options({ projectDir: sub, cwd: sub, walkUpToGitRoot: true }))
    expect(walked.config.handlers.map((h) => h.name)).toEqual(['root-shared', 'root-local'])
  })

  it('settingSources restricts the files read; CLAUDE_CONFIG_DIR moves user settings', async () => {
    const l = await layout()
    const alt = join(l.root, 'alt-config')
    await mkdir(alt)
    await write(join(alt, 'settings.json'), hooksFile('alt-user'))
    await write(join(l.project, '.claude', 'settings.json'), hooksFile('project'))
    const loaded = await loadHookSources(l.options({ env: { CLAUDE_CONFIG_DIR: alt }, settingSources: ['user'] }))
    expect(loaded.config.handlers.map((h) => h.name)).toEqual(['alt-user'])
  })
})
