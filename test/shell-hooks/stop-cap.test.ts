import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeBox, writeSettings, cmd, run, json, notices, script, lastUserTexts, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const replies = (n: number) => Array.from({ length: n }, (_, i) => ({ reply: `done ${i}` }))

describe('CLAUDE_CODE_STOP_HOOK_BLOCK_CAP', () => {
  it('2: two continuations, then the third block is overridden with a warning', async () => {
    await writeSettings(box, { Stop: [{ hooks: [cmd(json({ decision: 'block', reason: 'again' }))] }] })
    const r = await run(box, replies(6), 'go', { env: { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '2' } })
    expect(r.requests).toHaveLength(3)
    expect(r.result).toMatchObject({ terminal_reason: 'completed', result: 'done 2' })
    expect(notices(r.messages).join('\n')).toContain('blocked the turn from ending 3 consecutive times')
  })

  it('0 lifts the cap: a hook may continue the turn past 8 until it lets it end', async () => {
    // Blocks 11 times, then lets the turn end: past the default cap of 8.
    const counter = join(box.out, 'count')
    const hook = await script(box, 'stop.sh', `n=$(cat ${counter} 2>/dev/null || echo 0)\nif [ "$n" -ge 11 ]; then exit 0; fi\necho $((n + 1)) > ${counter}\necho "not yet ($n)" >&2\nexit 2\n`)
    await writeSettings(box, { Stop: [{ hooks: [cmd(`sh ${hook}`)] }] })
    const r = await run(box, replies(14), 'go', { env: { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '0' } })
    expect(r.requests).toHaveLength(12)
    expect(r.result).toMatchObject({ terminal_reason: 'completed', result: 'done 11' })
    expect(notices(r.messages).join('\n')).not.toContain('consecutive times')
  })
})

describe('a Stop decision "block" with no reason', () => {
  it.each([{ decision: 'block' }, { decision: 'block', reason: '' }, { decision: 'block', reason: '  ' }])('%j still continues the turn once, the model told "Blocked by hook", and the hook log says why', async (output) => {
    // Blocks only while stop_hook_active is false, as a well-behaved Stop hook does.
    await writeSettings(box, { Stop: [{ hooks: [cmd(`grep -q '"stop_hook_active":true' || ${json(output)}`)] }] })
    const r = await run(box, replies(3), 'go')
    expect(r.requests).toHaveLength(2)
    expect(lastUserTexts(r.requests[1]!.body).join('\n')).toContain('Stop hook feedback:\nBlocked by hook')
    expect(r.result).toMatchObject({ terminal_reason: 'completed', result: 'done 1' })
    expect(notices(r.messages).join('\n')).toContain('decision "block" without a reason; the turn goes on with "Blocked by hook"')
  })
})
