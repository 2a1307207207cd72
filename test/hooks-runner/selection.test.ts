import { describe, expect, it } from 'vitest'
import { createHooksRunner } from '../../hooks-runner/hooks-runner.js'
import { resolveHooks } from '../../hooks-runner/resolve-hooks.js'
import type { ResolvedHandler } from '../../hooks-runner/hooks-config.js'
import { cmd, configOf, fire, group, preToolUse, projectSource } from './helpers.js'

describe('handler selection (spec §4.1 steps 3–5)', () => {
  it('`if` filters tool events; on other events a handler with `if` never runs', async () => {
    const hooks = {
      ...group('PreToolUse', [cmd('echo git', { if: 'Bash(git *)' }), cmd('echo any')]),
      ...group('Stop', [cmd('echo stop-if', { if: 'Bash' }), cmd('echo stop')]),
    }
    const git = await fire('PreToolUse', preToolUse('git push'), hooks)
    expect(git.records.map((r) => r.name)).toEqual(['echo git', 'echo any'])
    const ls = await fire('PreToolUse', preToolUse('ls'), hooks)
    expect(ls.records.map((r) => r.name)).toEqual(['echo any'])
    const stop = await fire('Stop', {}, hooks)
    expect(stop.records.map((r) => r.name)).toEqual(['echo stop'])
    expect(stop.warnings).toContainEqual(expect.objectContaining({ code: 'HOOKS_WARN_IF_IGNORED' }))
  })

  it('matchers pick groups; identical handlers in two matching groups run once; enabled:false is skipped', async () => {
    const hooks = { PreToolUse: [
      { matcher: 'Bash', hooks: [cmd('echo shared'), cmd('echo off', { enabled: false })] },
      { matcher: 'Ba.*', hooks: [cmd('echo shared'), cmd('echo regex')] },
      { matcher: 'Edit', hooks: [cmd('echo edit')] },
    ] }
    const r = await fire('PreToolUse', preToolUse(), hooks)
    expect(r.records.map((x) => x.name)).toEqual(['echo shared', 'echo regex'])
    expect(r.hookName).toBe('PreToolUse:Bash')
  })

  it('`once` is honoured for skill sources only, after a successful run', async () => {
    const skill = { ...projectSource('skill:deploy'), kind: 'extra' as const, dedupClass: 'extra:skill:deploy', honourOnce: true }
    const hooks = group('Stop', [cmd('echo once', { once: true })])
    const runner = createHooksRunner({ config: resolveHooks([{ source: skill, hooks }, { source: projectSource(), hooks }]).config, projectDir: process.cwd() })
    expect((await runner.run('Stop', {})).records.map((r) => r.source.kind)).toEqual(['extra', 'project'])
    expect((await runner.run('Stop', {})).records.map((r) => r.source.kind)).toEqual(['project'])
    expect(runner.select('Stop', {}).handlers).toHaveLength(1)
    await runner.close()
  })

  it('reports progress with each handler (statusMessage) and record', async () => {
    const started: ResolvedHandler[] = []
    const ended: string[] = []
    const config = configOf(group('Stop', [cmd('true', { statusMessage: 'Checking…' })]))
    const runner = createHooksRunner({ config, projectDir: process.cwd(), onHookStart: (h) => started.push(h), onHookEnd: (r) => ended.push(r.outcome) })
    const r = await runner.run('Stop', {})
    expect(started[0]!.config.statusMessage).toBe('Checking…')
    expect(ended).toEqual(['success'])
    expect(r.records[0]).toMatchObject({ name: 'true', type: 'command', path: 'hooks.Stop[0].hooks[0]', source: { label: 'Project Settings' } })
    expect(r.records[0]!.durationMs).toBeGreaterThan(0)
  })

  it('an input that cannot be serialised fails closed on PreToolUse, open elsewhere', async () => {
    const circular: Record<string, unknown> = { ...preToolUse() }
    circular.self = circular
    const r = await fire('PreToolUse', circular, group('PreToolUse', [cmd('true')]))
    expect(r).toMatchObject({ blocked: true, decision: 'deny' })
    const stop = await fire('Stop', circular, group('Stop', [cmd('true')]))
    expect(stop.blocked).toBe(false)
    expect(stop.errors[0]!.message).toContain('Failed to prepare hook input')
  })
})
