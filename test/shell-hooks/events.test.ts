import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import agentMod from '../../mods/agent/index.js'
import commandsMod from '../../mods/commands/index.js'
import memoryMod from '../../mods/memory/index.js'
import mentionsMod from '../../mods/mentions/index.js'
import readMod from '../../mods/read/index.js'
import { makeBox, dump, dumped, writeSettings, cmd, run, script, lastUserTexts, withOptions, COMMON, TOOL_COMMON, SESSION_COMMON, keys, json, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

describe('SubagentStart / SubagentStop', () => {
  it('fire around a subagent with its id, type and transcript; a SubagentStop block continues the subagent', async () => {
    const marker = join(box.out, 'stopped-once')
    const stop = await script(box, 'substop.sh', `${dump(box, 'SubagentStop')}\nif [ -e ${marker} ]; then exit 0; fi\ntouch ${marker}\necho 'cite your sources' >&2\nexit 2\n`)
    await writeSettings(box, {
      SubagentStart: [{ matcher: 'general-purpose', hooks: [cmd(`${dump(box, 'SubagentStart')}; ${json({ hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'the repo uses tabs' } })}`)] }],
      SubagentStop: [{ hooks: [cmd(`sh ${stop}`)] }],
    })
    const r = await run(box, [
      { reply: [{ tool_use: { id: 'toolu_a', name: 'Agent', input: { description: 'look', prompt: 'look around' } } }] },
      { reply: 'found it' },
      { reply: 'found it, see a.txt' },
      { reply: 'ok' },
    ], 'go', { mods: [withOptions(agentMod, { home: box.home })] })
    expect(r.result).toMatchObject({ terminal_reason: 'completed', result: 'ok' })
    const [start] = await dumped(box, 'SubagentStart')
    // No permission_mode, as Claude Code sends none on SubagentStart.
    expect(keys(start!)).toEqual([...COMMON.filter((k) => k !== 'permission_mode'), 'agent_id', 'agent_type'].sort())
    expect(start).toMatchObject({ agent_type: 'general-purpose', agent_id: expect.any(String) })
    // The subagent's first message carries the SubagentStart context.
    expect(JSON.stringify(r.requests[1]!.body.messages[0])).toContain('the repo uses tabs')
    const stops = await dumped(box, 'SubagentStop')
    expect(stops).toHaveLength(2)
    expect(keys(stops[0]!)).toEqual([...TOOL_COMMON, 'agent_id', 'agent_type', 'agent_transcript_path', 'background_tasks', 'last_assistant_message', 'session_crons', 'stop_hook_active'].sort())
    expect(stops.map((s) => [s.stop_hook_active, s.last_assistant_message])).toEqual([[false, 'found it'], [true, 'found it, see a.txt']])
    expect(stops[0]).toMatchObject({ agent_id: start!.agent_id, agent_type: 'general-purpose' })
    expect(stops[0]!.agent_transcript_path).toBe(join(stops[0]!.transcript_path.replace(/\.jsonl$/, ''), 'subagents', `agent-${start!.agent_id}.jsonl`))
    // The block reached the subagent, not the parent, as "Stop hook feedback" as in Claude Code; the parent got the final report.
    expect(lastUserTexts(r.requests[2]!.body).join('\n')).toContain(`Stop hook feedback:\n[sh ${stop}]: cite your sources\n`)
    expect(lastUserTexts(r.requests[2]!.body).join('\n')).not.toContain('SubagentStop hook feedback')
    expect(lastUserTexts(r.requests[3]!.body)[0]).toContain('\nfound it, see a.txt\n</subagent-report>')
  })
})

describe('InstructionsLoaded', () => {
  it('fires for the project CLAUDE.md the memory mod loads at start', async () => {
    await writeFile(join(box.project, 'CLAUDE.md'), 'Use tabs.\n')
    await writeSettings(box, { InstructionsLoaded: [{ matcher: 'session_start', hooks: [cmd(`${dump(box, 'InstructionsLoaded')}; echo '{"continue":false}'`)] }] })
    const r = await run(box, [{ reply: 'ok' }], 'go', { mods: [withOptions(memoryMod, { home: box.home, managedPath: false })] })
    expect(r.result.terminal_reason).toBe('completed')
    const loads = await dumped(box, 'InstructionsLoaded')
    expect(loads).toHaveLength(1)
    // No permission_mode, as Claude Code sends none on InstructionsLoaded.
    expect(keys(loads[0]!)).toEqual([...SESSION_COMMON.filter((k) => k !== 'permission_mode'), 'file_path', 'load_reason', 'memory_type'].sort())
    expect(loads[0]).toMatchObject({ file_path: join(box.project, 'CLAUDE.md'), memory_type: 'Project', load_reason: 'session_start' })
  })
})

describe('InstructionsLoaded beyond the start', () => {
  it('fires for imports (include), nested CLAUDE.md files (nested_traversal) and scoped rules (path_glob_match) with their fields', async () => {
    const p = (...parts: string[]) => join(box.project, ...parts)
    await mkdir(p('sub'), { recursive: true })
    await mkdir(p('.claude', 'rules'), { recursive: true })
    await writeFile(p('CLAUDE.md'), 'Use tabs.\n@docs.md\n')
    await writeFile(p('docs.md'), 'Docs.\n')
    await writeFile(p('sub', 'CLAUDE.md'), 'Sub rules.\n@more.md\n')
    await writeFile(p('sub', 'more.md'), 'More.\n')
    await writeFile(p('sub', 'a.ts'), 'export {}\n')
    await writeFile(p('.claude', 'rules', 'ts.md'), '---\npaths: ["**/*.ts"]\n---\nTypeScript rules.\n')
    await writeSettings(box, { InstructionsLoaded: [{ hooks: [cmd(dump(box, 'InstructionsLoaded'))] }] })
    const read = { reply: [{ tool_use: { name: 'Read', input: { file_path: p('sub', 'a.ts') } } }] }
    const r = await run(box, [read, { reply: 'ok' }], 'go', { mods: [withOptions(memoryMod, { home: box.home, managedPath: false }), readMod] })
    expect(r.result.terminal_reason).toBe('completed')
    const loads = await dumped(box, 'InstructionsLoaded')
    const seen = loads.map((l) => ({ ...l })).map(({ file_path, load_reason, memory_type, globs, trigger_file_path, parent_file_path }) =>
      ({ file_path, load_reason, memory_type, ...(globs ? { globs } : {}), ...(trigger_file_path ? { trigger_file_path } : {}), ...(parent_file_path ? { parent_file_path } : {}) }))
    expect(seen).toEqual(expect.arrayContaining([
      { file_path: p('CLAUDE.md'), load_reason: 'session_start', memory_type: 'Project' },
      { file_path: p('docs.md'), load_reason: 'include', memory_type: 'Project', parent_file_path: p('CLAUDE.md') },
      { file_path: p('sub', 'CLAUDE.md'), load_reason: 'nested_traversal', memory_type: 'Project', trigger_file_path: p('sub', 'a.ts') },
      { file_path: p('sub', 'more.md'), load_reason: 'include', memory_type: 'Project', parent_file_path: p('sub', 'CLAUDE.md'), trigger_file_path: p('sub', 'a.ts') },
      { file_path: p('.claude', 'rules', 'ts.md'), load_reason: 'path_glob_match', memory_type: 'Project', globs: ['**/*.ts'], trigger_file_path: p('sub', 'a.ts') },
    ]))
    expect(loads).toHaveLength(5)
  })

  it('a matcher on load_reason picks the lazy loads only', async () => {
    await mkdir(join(box.project, 'sub'), { recursive: true })
    await writeFile(join(box.project, 'CLAUDE.md'), 'Top.\n')
    await writeFile(join(box.project, 'sub', 'CLAUDE.md'), 'Sub.\n')
    await writeFile(join(box.project, 'sub', 'b.txt'), 'b\n')
    await writeSettings(box, { InstructionsLoaded: [{ matcher: 'nested_traversal|path_glob_match', hooks: [cmd(dump(box, 'InstructionsLoaded'))] }] })
    const read = { reply: [{ tool_use: { name: 'Read', input: { file_path: join(box.project, 'sub', 'b.txt') } } }] }
    await run(box, [read, { reply: 'ok' }], 'go', { mods: [withOptions(memoryMod, { home: box.home, managedPath: false }), readMod] })
    expect((await dumped(box, 'InstructionsLoaded')).map((l) => [l.load_reason, l.file_path])).toEqual([['nested_traversal', join(box.project, 'sub', 'CLAUDE.md')]])
  })

  it('fires for the nested CLAUDE.md an @-mention pulls in', async () => {
    await mkdir(join(box.project, 'sub'), { recursive: true })
    await writeFile(join(box.project, 'sub', 'CLAUDE.md'), 'Sub.\n')
    await writeFile(join(box.project, 'sub', 'b.txt'), 'b\n')
    await writeSettings(box, { InstructionsLoaded: [{ matcher: 'nested_traversal', hooks: [cmd(dump(box, 'InstructionsLoaded'))] }] })
    await run(box, [{ reply: 'ok' }], 'see @sub/b.txt', { mods: [withOptions(memoryMod, { home: box.home, managedPath: false }), mentionsMod] })
    expect(await dumped(box, 'InstructionsLoaded')).toEqual([expect.objectContaining({ load_reason: 'nested_traversal', file_path: join(box.project, 'sub', 'CLAUDE.md'), trigger_file_path: join(box.project, 'sub', 'b.txt') })])
  })
})

describe('StopFailure', () => {
  it('fires when the model request fails, with the error kind; its output is ignored', async () => {
    await writeSettings(box, {
      StopFailure: [{ matcher: 'invalid_request', hooks: [cmd(`${dump(box, 'StopFailure')}; echo '{"decision":"block","reason":"retry!","continue":false}'; exit 2`)] }],
      Stop: [{ hooks: [cmd(dump(box, 'Stop'))] }],
    })
    const r = await run(box, [{ error: { status: 400, message: 'bad field' } }, { reply: 'never' }])
    expect(r.result).toMatchObject({ terminal_reason: 'api_error', is_error: true })
    expect(r.requests).toHaveLength(1)
    const [failure] = await dumped(box, 'StopFailure')
    expect(keys(failure!)).toEqual([...COMMON, 'error', 'error_details', 'last_assistant_message'].sort())
    expect(failure).toMatchObject({ error: 'invalid_request', error_details: expect.stringContaining('bad field'), last_assistant_message: r.result.result })
    expect(failure!.last_assistant_message).toMatch(/^API Error 400: .*bad field/)
    expect(await dumped(box, 'Stop')).toHaveLength(0)
  })
})

describe('UserPromptExpansion', () => {
  const commands = () => withOptions(commandsMod, { home: box.home })
  beforeEach(async () => {
    await mkdir(join(box.project, '.claude', 'commands'), { recursive: true })
    await writeFile(join(box.project, '.claude', 'commands', 'review.md'), 'Review $ARGUMENTS carefully.\n')
  })

  it('fires as a slash command expands; its context rides in the expanded prompt', async () => {
    await writeSettings(box, { UserPromptExpansion: [{ matcher: 'review', hooks: [cmd(`${dump(box, 'UserPromptExpansion')}; echo 'the style guide is in STYLE.md'`)] }] })
    const r = await run(box, [{ reply: 'ok' }], '/review src/a.ts', { mods: [commands()] })
    expect(r.result.result).toBe('ok')
    const [e] = await dumped(box, 'UserPromptExpansion')
    expect(keys(e!)).toEqual([...COMMON, 'command_args', 'command_name', 'command_source', 'expansion_type', 'prompt'].sort())
    expect(e).toMatchObject({ expansion_type: 'slash_command', command_name: 'review', command_args: 'src/a.ts', command_source: 'projectSettings', prompt: '/review src/a.ts' })
    const sent = lastUserTexts(r.requests[0]!.body).join('\n')
    expect(sent).toContain('Review src/a.ts carefully.')
    expect(sent).toContain('the style guide is in STYLE.md')
  })

  it('a block refuses the command, no error: no model request, the command quoted unless suppressOriginalPrompt', async () => {
    await writeSettings(box, { UserPromptExpansion: [{ hooks: [cmd("echo 'reviews are frozen' >&2; exit 2")] }] })
    const r = await run(box, [{ reply: 'never' }], '/review src/a.ts', { mods: [commands()] })
    expect(r.requests).toHaveLength(0)
    expect(r.result.is_error).toBe(false)
    expect(r.result.result).toBe("UserPromptExpansion operation blocked by hook:\n[echo 'reviews are frozen' >&2; exit 2]: reviews are frozen\n\n\nOriginal prompt: /review src/a.ts")
    const suppress = { hookSpecificOutput: { hookEventName: 'UserPromptExpansion', suppressOriginalPrompt: true } }
    await writeSettings(box, { UserPromptExpansion: [{ hooks: [cmd(`${json(suppress)}; echo 'reviews are frozen' >&2; exit 2`)] }] })
    const quiet = await run(box, [{ reply: 'never' }], '/review src/a.ts', { mods: [commands()] })
    expect(quiet.result.result).toMatch(/^UserPromptExpansion operation blocked by hook:\n\[.*\]: reviews are frozen\n$/)
  })
})
