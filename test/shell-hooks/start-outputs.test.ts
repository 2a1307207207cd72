import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { listSessions } from '../../mods/transcripts/store/list.js'
import { big, bigTool, compactionWith, summary } from '../compaction/helpers.js'
import commandsMod from '../../mods/commands/index.js'
import transcripts from '../../mods/transcripts/index.js'
import { makeBox, dump, dumped, writeSettings, cmd, run, script, lastUserTexts, notices, withOptions, json, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => {
  vi.unstubAllEnvs()
  await box.remove()
})

const start = (fields: Record<string, unknown>) => json({ hookSpecificOutput: { hookEventName: 'SessionStart', ...fields } })

describe('SessionStart sessionTitle', () => {
  it('names the session in the transcript and the sessions list; UserPromptSubmit gets it and may rename it', async () => {
    vi.stubEnv('MODLOOP_HOME', box.home)
    await writeSettings(box, {
      SessionStart: [{ hooks: [cmd(start({ sessionTitle: 'Fix the parser' }))] }],
      UserPromptSubmit: [{ hooks: [cmd(dump(box, 'UserPromptSubmit'))] }],
    })
    const first = await run(box, [{ reply: 'one' }], 'please look at src/parse.ts', { mods: [transcripts] })
    expect(first.result.terminal_reason).toBe('completed')
    const [submit] = await dumped(box, 'UserPromptSubmit')
    expect(submit!.session_title).toBe('Fix the parser')
    let [listed] = await listSessions({ cwd: box.project, env: { MODLOOP_HOME: box.home } })
    expect(listed).toMatchObject({ sessionId: first.result.session_id, title: 'Fix the parser', customTitle: 'Fix the parser', firstPrompt: 'please look at src/parse.ts' })

    // A later prompt's hook renames it; the last title counts, and the conversation still resumes.
    await writeSettings(box, { UserPromptSubmit: [{ hooks: [cmd(json({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', sessionTitle: 'Parser: done' } }))] }] })
    const again = await run(box, [{ reply: 'two' }], 'and now?', { mods: [transcripts], resume: first.result.session_id })
    expect(again.result.terminal_reason).toBe('completed')
    expect(again.requests[0]!.body.messages.length).toBe(3)
    ;[listed] = await listSessions({ cwd: box.project, env: { MODLOOP_HOME: box.home } })
    expect(listed).toMatchObject({ title: 'Parser: done', turns: 2 })
  })

  it('is ignored on a compaction’s SessionStart, which gets the title as session_title', async () => {
    vi.stubEnv('MODLOOP_HOME', box.home)
    vi.stubEnv('MODLOOP_AUTOCOMPACT_TOKENS', '5000')
    await writeSettings(box, {
      SessionStart: [
        { matcher: 'startup', hooks: [cmd(start({ sessionTitle: 'first' }))] },
        { matcher: 'compact', hooks: [cmd(`${dump(box, 'SessionStart')}; ${start({ sessionTitle: 'renamed' })}`)] },
      ],
    })
    const r = await run(box, [big('r1'), big('r2'), big('r3'), summary('SUMMARY-ONE'), { reply: 'done' }], 'go', {
      mods: [bigTool, compactionWith({ keepRecentFraction: 0, microcompact: false }), transcripts],
    })
    expect(r.result.result).toBe('done')
    const starts = await dumped(box, 'SessionStart')
    expect(starts.map((s) => s.source)).toEqual(['compact'])
    expect(starts[0]!.session_title).toBe('first')
    const [listed] = await listSessions({ cwd: box.project, env: { MODLOOP_HOME: box.home } })
    expect(listed!.title).toBe('first')
  })
})

describe('SessionStart initialUserMessage', () => {
  it('runs as the first turn of a headless session, before the prompt given', async () => {
    await writeSettings(box, { SessionStart: [{ hooks: [cmd(start({ initialUserMessage: 'Read the TODO file first.' }))] }] })
    const r = await run(box, [{ reply: 'read it' }, { reply: 'answered' }], 'now fix the bug')
    expect(r.requests).toHaveLength(2)
    expect(lastUserTexts(r.requests[0]!.body)).toContain('Read the TODO file first.')
    expect(lastUserTexts(r.requests[1]!.body)).toContain('now fix the bug')
    expect(r.requests[1]!.body.messages.length).toBe(3)
    const results = r.messages.filter((m) => m.type === 'result')
    expect(results.map((m) => (m as { result?: string }).result)).toEqual(['read it', 'answered'])
    expect(r.result.result).toBe('answered')
  })

  it('is ignored in an interactive session', async () => {
    await writeSettings(box, { SessionStart: [{ hooks: [cmd(start({ initialUserMessage: 'Read the TODO file first.' }))] }] })
    const r = await run(box, [{ reply: 'answered' }], 'now fix the bug', { isInteractive: true })
    expect(r.requests).toHaveLength(1)
    expect(lastUserTexts(r.requests[0]!.body).join('\n')).not.toContain('TODO')
  })
})

describe('SessionStart reloadSkills', () => {
  const skillHook = async (reload: boolean) => {
    const dir = join(box.project, '.claude', 'skills', 'deploy')
    const body = `mkdir -p ${dir}\nprintf -- '---\\nname: deploy\\ndescription: Ships the build to staging\\n---\\nRun the deploy script.\\n' > ${join(dir, 'SKILL.md')}\n${reload ? start({ reloadSkills: true }) : ''}\n`
    await writeSettings(box, { SessionStart: [{ hooks: [cmd(`sh ${await script(box, 'skill.sh', body)}`)] }] })
  }
  const commands = () => withOptions(commandsMod, { home: box.home })
  const system = (body: any) => (Array.isArray(body.system) ? body.system.map((b: any) => b.text).join('\n') : String(body.system ?? ''))

  it('re-scans the skill directories once the hooks completed: the new skill is listed and runs', async () => {
    await skillHook(true)
    const r = await run(box, [
      { reply: [{ tool_use: { id: 'toolu_1', name: 'Skill', input: { skill: 'deploy' } } }] },
      { reply: 'deployed' },
    ], 'ship it', { mods: [commands()] })
    expect(system(r.requests[0]!.body)).toContain('deploy')
    expect(r.requests[0]!.body.tools.map((t: any) => t.name)).toContain('Skill')
    expect(lastUserTexts(r.requests[1]!.body).join('\n')).toContain('Run the deploy script.')
  })

  it('without it, a skill written by the hook is not seen until the next session', async () => {
    await skillHook(false)
    const r = await run(box, [{ reply: 'no skills' }], 'ship it', { mods: [commands()] })
    expect(system(r.requests[0]!.body)).not.toContain('Ships the build')
    expect(r.requests[0]!.body.tools.map((t: any) => t.name)).not.toContain('Skill')
  })
})

describe('SessionStart watchPaths', () => {
  it('is accepted and ignored: no error, the context still arrives', async () => {
    await writeSettings(box, { SessionStart: [{ hooks: [cmd(start({ watchPaths: [join(box.project, '.env')], additionalContext: 'watching' }))] }] })
    const r = await run(box, [{ reply: 'ok' }], 'go')
    expect(r.result.terminal_reason).toBe('completed')
    expect(notices(r.messages).filter((n) => n.includes('hook error'))).toEqual([])
    expect(lastUserTexts(r.requests[0]!.body).join('\n')).toContain('watching')
  })
})
