import { readFile } from 'node:fs/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeBox, writeSettings, cmd, run, lastUserTexts, notices, json, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const echo = { reply: [{ tool_use: { id: 'toolu_e', name: 'Echo', input: { text: 'hi' } } }] }

describe('hook output over 10,000 characters', () => {
  it('is saved in the session directory; the model gets the path and the start', async () => {
    await writeSettings(box, { UserPromptSubmit: [{ hooks: [cmd("printf 'START'; head -c 12000 /dev/zero | tr '\\0' x")] }] })
    const r = await run(box, [{ reply: 'ok' }])
    const sent = lastUserTexts(r.requests[0]!.body).join('\n')
    const file = /it is saved in (\S+\.txt)\./.exec(sent)?.[1]
    expect(file).toContain(`${r.result.session_id}/hook-output/`)
    expect(sent).toContain('hook output was 12005 characters')
    expect(sent).toContain(`START${'x'.repeat(1995)}`)
    expect(sent.length).toBeLessThan(4_000)
    expect(await readFile(file!, 'utf8')).toBe(`START${'x'.repeat(12000)}`)
  })
})

describe('async hooks', () => {
  it('the loop does not wait; their systemMessage then context reach the model with a later request, each as written, as Claude Code sends them', async () => {
    const output = { systemMessage: 'lint ran', hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'lint is clean' } }
    await writeSettings(box, { PostToolUse: [{ matcher: 'Echo', hooks: [cmd(`sleep 0.3; ${json(output)}`, { async: true })] }] })
    const r = await run(box, [echo, { reply: [{ tool_use: { id: 'toolu_w', name: 'Wait', input: { ms: 700, label: 'w' } } }] }, { reply: 'ok' }])
    expect(r.result.result).toBe('ok')
    expect(lastUserTexts(r.requests[1]!.body).join('\n')).not.toContain('lint is clean')
    const texts = lastUserTexts(r.requests[2]!.body)
    expect(texts.slice(-2)).toEqual(['<system-reminder>\nlint ran\n</system-reminder>', '<system-reminder>\nlint is clean\n</system-reminder>'])
  })

  it('asyncRewake: exit 2 wakes the model before the turn would end', async () => {
    await writeSettings(box, { PostToolUse: [{ matcher: 'Echo', hooks: [cmd("sleep 0.2; echo 'the tests fail now' >&2; exit 2", { asyncRewake: true })] }] })
    const r = await run(box, [echo, { reply: 'done', delayMs: 700 }, { reply: 'fixed it' }])
    expect(r.result).toMatchObject({ terminal_reason: 'completed', result: 'fixed it' })
    expect(lastUserTexts(r.requests[2]!.body).join('\n')).toContain('the tests fail now')
  })

  it('asyncRewake with rewakeMessage and rewakeSummary: the model reads the message before the output, the person sees the summary, and neither is warned about', async () => {
    const hook = cmd("sleep 0.2; echo 'two tests fail' >&2; exit 2", { asyncRewake: true, rewakeMessage: 'Background test run finished:', rewakeSummary: 'tests failed in the background' })
    await writeSettings(box, { PostToolUse: [{ matcher: 'Echo', hooks: [hook] }] })
    const r = await run(box, [echo, { reply: 'done', delayMs: 700 }, { reply: 'fixed it' }])
    expect(r.result).toMatchObject({ terminal_reason: 'completed', result: 'fixed it' })
    expect(lastUserTexts(r.requests[2]!.body).join('\n')).toContain('Background test run finished:\ntwo tests fail')
    const shown = notices(r.messages).join('\n')
    expect(shown).toContain('tests failed in the background')
    expect(shown).not.toContain('unknown field')
  })
})
