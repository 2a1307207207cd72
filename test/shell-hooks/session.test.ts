import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import commandsMod from '../../mods/commands/index.js'
import transcripts from '../../mods/transcripts/index.js'
import { conversation } from '../sdk/conversation.js'
import { big, bigTool, boundaries, compactionWith, firstUserText, isSummaryRequest, mainRequests, summary } from '../compaction/helpers.js'
import { toolsMod } from '../loop/helpers.js'
import { makeBox, dump, dumped, writeSettings, cmd, run, hooksMod, withOptions, json, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => {
  vi.unstubAllEnvs()
  await box.remove()
})

describe('SessionStart source', () => {
  it('is startup, resume, fork and clear as the session began', async () => {
    vi.stubEnv('MODLOOP_HOME', box.home)
    await writeSettings(box, { SessionStart: [{ hooks: [cmd(dump(box, 'SessionStart'))] }] })
    const first = await run(box, [{ reply: 'one' }], 'go', { mods: [transcripts] })
    const resumed = await run(box, [{ reply: 'two' }], 'again', { mods: [transcripts], resume: first.result.session_id })
    const forked = await run(box, [{ reply: 'three' }], 'branch', { mods: [transcripts], resume: first.result.session_id, forkSession: true })
    const c = await conversation([{ reply: 'four' }], { cwd: box.project, mods: [toolsMod(), hooksMod(box), transcripts, withOptions(commandsMod, { home: box.home })] })
    try {
      await c.say('hello')
      await c.say('/clear')
    } finally {
      await c.end()
    }
    const starts = await dumped(box, 'SessionStart')
    expect(starts.map((s) => s.source)).toEqual(['startup', 'resume', 'fork', 'startup', 'clear'])
    expect(starts[1]!.session_id).toBe(first.result.session_id)
    expect(starts[2]!.session_id).toBe(forked.result.session_id)
    expect(forked.result.session_id).not.toBe(first.result.session_id)
    expect(resumed.result.session_id).toBe(first.result.session_id)
    expect(starts[4]!.session_id).not.toBe(starts[3]!.session_id)
  })

  it('on resume and fork, says how long since the last response, its context, and whether the prompt cache likely expired', async () => {
    vi.stubEnv('MODLOOP_HOME', box.home)
    await writeSettings(box, { SessionStart: [{ hooks: [cmd(dump(box, 'SessionStart'))] }] })
    const first = await run(box, [{ reply: 'one', usage: { input_tokens: 1200, cache_read_input_tokens: 800, output_tokens: 30 } }], 'go', { mods: [transcripts], model: 'claude-sonnet-4-5' })
    await run(box, [{ reply: 'two' }], 'again', { mods: [transcripts], resume: first.result.session_id, model: 'claude-sonnet-4-5' })
    await run(box, [{ reply: 'three' }], 'branch', { mods: [transcripts], resume: first.result.session_id, forkSession: true, model: 'claude-sonnet-4-5' })
    const [startup, resumed, forked] = await dumped(box, 'SessionStart')
    expect(startup).not.toHaveProperty('context_tokens')
    expect(resumed).toMatchObject({ prompt_cache_likely_expired: false, seconds_since_last_response: expect.any(Number) })
    // The request's 2,000 tokens and the answer's output as its line recorded it (written as the text block closed).
    expect(resumed!.context_tokens).toBeGreaterThanOrEqual(2000)
    expect(resumed!.context_tokens).toBeLessThanOrEqual(2030)
    // Sonnet writes the cache at $3.75 a million tokens.
    expect(resumed!.estimated_cache_write_usd).toBeCloseTo(resumed!.context_tokens * 3.75 / 1e6, 8)
    // The fork copies the session as the resumed run left it: its last response is that run's.
    expect(forked).toMatchObject({ context_tokens: expect.any(Number), prompt_cache_likely_expired: false, seconds_since_last_response: expect.any(Number), estimated_cache_write_usd: expect.any(Number) })
  })
})

describe('PreCompact / PostCompact', () => {
  const script = [big('r1'), big('r2'), big('r3'), summary('SUMMARY-ONE'), { reply: 'done' }]
  const mods = () => [bigTool, compactionWith({ keepRecentFraction: 0, microcompact: false })]

  it('a PreCompact block skips the automatic compaction', async () => {
    vi.stubEnv('MODLOOP_AUTOCOMPACT_TOKENS', '5000')
    await writeSettings(box, { PreCompact: [{ matcher: 'auto', hooks: [cmd(`${dump(box, 'PreCompact')}; echo 'keep everything' >&2; exit 2`)] }] })
    const r = await run(box, [big('r1'), big('r2'), big('r3'), { reply: 'done' }], 'go', { mods: mods() })
    expect(r.result.result).toBe('done')
    expect(boundaries(r.messages)).toHaveLength(0)
    expect(r.requests.filter(isSummaryRequest)).toHaveLength(0)
    const pre = await dumped(box, 'PreCompact')
    expect(pre.length).toBeGreaterThanOrEqual(1)
    // No permission_mode, as Claude Code sends none on PreCompact.
    expect(Object.keys(pre[0]!).sort()).toEqual(['custom_instructions', 'cwd', 'hook_event_name', 'prompt_id', 'session_id', 'transcript_path', 'trigger'])
    expect(pre[0]).toMatchObject({ trigger: 'auto', custom_instructions: null })
  })

  it('PostCompact gets the summary; SessionStart (source compact) context opens the compacted conversation', async () => {
    vi.stubEnv('MODLOOP_AUTOCOMPACT_TOKENS', '5000')
    await writeSettings(box, {
      PostCompact: [{ hooks: [cmd(dump(box, 'PostCompact'))] }],
      SessionStart: [{ matcher: 'compact', hooks: [cmd(`${dump(box, 'SessionStart')}; ${json({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'reloaded the plan' } })}`)] }],
    })
    const r = await run(box, script, 'go', { mods: mods() })
    expect(r.result.result).toBe('done')
    expect(boundaries(r.messages)).toHaveLength(1)
    const [post] = await dumped(box, 'PostCompact')
    // The summary the model wrote, as Claude Code passes it: not the framing the compacted conversation opens with.
    expect(post).toMatchObject({ trigger: 'auto', compact_summary: 'SUMMARY-ONE' })
    expect(post).not.toHaveProperty('permission_mode')
    const starts = await dumped(box, 'SessionStart')
    expect(starts.map((s) => s.source)).toEqual(['compact'])
    const after = mainRequests(r.requests)[3]!
    expect(firstUserText(after)).toContain('SUMMARY-ONE')
    expect(firstUserText(after)).toContain('reloaded the plan')
  })
})
