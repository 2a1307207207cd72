import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import autoMode from '../../mods/auto-mode/index.js'
import { DEFAULT_RULES } from '../../mods/auto-mode/rules.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { permissionsWith, sandbox, type Sandbox } from '../permissions/helpers.js'
import { conversation } from './conversation.js'
import { systemText } from '../helpers/system-text.js'
import { runCli } from '../helpers/cli.js'

let box: Sandbox
beforeAll(async () => { box = await sandbox() })
afterAll(() => box.remove())

/** The auto-mode mod with options, for queries (their own mods take none). */
const autoWith = (options: Record<string, unknown>) => {
  const parsed = autoMode.options!.parse(options)
  return defineMod({ ...autoMode, options: z.any(), register: (on, _o, $) => autoMode.register(on, parsed, $) })
}

const touch = { reply: [{ tool_use: { id: 'toolu_touch', name: 'Touch', input: { label: 'x' } } }] }
const verdict = (decision: string, reason: string) => ({ reply: JSON.stringify({ decision, reason }), model: 'claude-haiku-4-5' })

function setup(mode?: string) {
  return {
    cwd: box.project,
    permissionMode: mode,
    env: { MODLOOP_HOME: box.modloopHome },
    mods: [autoWith({ model: 'claude-haiku-4-5', instructions: 'labels are harmless', home: box.home }), toolsMod(), permissionsWith({ home: box.home, trustStore: join(box.root, 'trust.json') })],
  }
}

describe('the auto permission mode', () => {
  it('asks the classifier about a call that would need approval; an approval runs it', async () => {
    const r = await runScript([touch, verdict('allow', 'touching a label in the project is harmless'), { reply: 'done' }], 'touch it', setup('auto'))
    expect(r.result).toMatchObject({ result: 'done', permission_denials: [] })
    const asked = r.requests[1]!.body as any
    expect(asked.model).toBe('claude-haiku-4-5')
    expect(asked.tools).toBeUndefined()
    expect(systemText(asked)).toMatch(/review one tool call/)
    expect(asked.messages[0].content).toContain('Tool: Touch')
    expect(asked.messages[0].content).toContain("The user's rules for this review: labels are harmless")
    const result = (r.requests[2]!.body as any).messages.at(-1).content[0]
    expect(result).toMatchObject({ tool_use_id: 'toolu_touch', content: 'touched x' })
    expect(result.is_error).toBeUndefined()
  })

  it("the classifier reads the rules of the user's settings (autoMode): a section set replaces the default, $defaults keeps it", async () => {
    const settings = join(box.home, '.claude', 'settings.json')
    await mkdir(join(box.home, '.claude'), { recursive: true })
    await writeFile(settings, JSON.stringify({ autoMode: { hard_deny: ['No Labels: never touch a label'], allow: ['$defaults', 'Labels: touching labels'] } }))
    try {
      const r = await runScript([touch, verdict('deny', 'labels are off limits'), { reply: 'ok' }], 'touch it', setup('auto'))
      const system = systemText(r.requests[1]!.body as any)
      expect(system).toContain('Always block, even when the user asked for it:\n- No Labels: never touch a label\n')
      expect(system).not.toContain(DEFAULT_RULES.hard_deny[0])
      expect(system).toContain(`Allow (exceptions to the block rules):\n${[...DEFAULT_RULES.allow, 'Labels: touching labels'].map((e) => `- ${e}`).join('\n')}\n`)
      expect(system).toContain(`- ${DEFAULT_RULES.soft_deny[0]}`)
    } finally {
      await rm(settings)
    }
  })

  it('a refusal denies the call with the classifier\'s reason, recorded as a permission denial', async () => {
    const r = await runScript([touch, verdict('deny', 'the task never asked for a touch'), { reply: 'ok, not touching' }], 'touch it', setup('auto'))
    const result = (r.requests[2]!.body as any).messages.at(-1).content[0]
    expect(result).toMatchObject({ tool_use_id: 'toolu_touch', is_error: true })
    expect(result.content).toBe('The auto mode classifier refused this Touch call: the task never asked for a touch')
    expect(r.result.permission_denials).toEqual([{ tool_name: 'Touch', tool_use_id: 'toolu_touch', tool_input: { label: 'x' } }])
  })

  it('undecided (a reply that is no verdict), the ask stands and goes to canUseTool', async () => {
    const asked: string[] = []
    const r = await runScript([touch, { reply: 'hmm, not sure' }, { reply: 'fine' }], 'touch it', {
      ...setup('auto'),
      canUseTool: async (_tool, _input, o) => { asked.push(o.decisionReason ?? ''); return { behavior: 'allow' } },
    })
    expect(asked).toHaveLength(1)
    expect(asked[0]).toContain("auto mode: the classifier's reply was not a verdict")
    expect(r.result.permission_denials).toEqual([])
  })

  it('does nothing in another mode, and switches on with setPermissionMode("auto")', async () => {
    const plain = await runScript([touch, { reply: 'denied' }], 'touch it', setup())
    expect(plain.requests).toHaveLength(2)
    expect(plain.result.permission_denials).toHaveLength(1)

    const c = await conversation([touch, { reply: 'refused' }, touch, verdict('allow', 'fine now'), { reply: 'touched' }], setup())
    try {
      expect((await c.say('touch')).permission_denials).toHaveLength(1)
      await c.q.setPermissionMode('auto')
      expect((await c.say('touch again')).permission_denials).toHaveLength(0)
      expect(systemText(c.server.requests[3]!.body as any)).toMatch(/review one tool call/)
    } finally {
      await c.end()
    }
  })

  it("an approval's reason is on record: q.why(toolUseId) shows the classifier's verdict", async () => {
    const c = await conversation([touch, verdict('allow', 'touching a label in the project is harmless'), { reply: 'done' }], setup('auto'))
    try {
      expect((await c.say('touch it')).permission_denials).toEqual([])
      expect(c.q.why('toolu_touch')).toContainEqual(expect.objectContaining({
        mod: 'auto-mode', event: 'tool.check', kind: 'result', subject: 'toolu_touch', tool: 'Touch',
        before: expect.objectContaining({ decision: 'ask' }),
        after: { decision: 'allow', rule: '[mode:auto]', reason: 'The auto mode classifier approved: touching a label in the project is harmless' },
      }))
    } finally {
      await c.end()
    }
  })

  it('runs what acceptEdits allows (a Write, mkdir and touch inside the project) without asking the classifier', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-auto-edits-')))
    try {
      const r = await runCli(['-p', 'go', '--output-format', 'json', '--permission-mode', 'auto'], {
        cwd: dir, env: { MODLOOP_HOME: join(dir, '.home') },
        script: [
          { reply: [
            { tool_use: { name: 'Write', input: { file_path: join(dir, 'w.txt'), content: 'w\n' } } },
            { tool_use: { name: 'Bash', input: { command: `mkdir ${join(dir, 'd')} && touch ${join(dir, 'd', 't.txt')}` } } },
          ] },
          { reply: 'done' },
        ],
      })
      expect(JSON.parse(r.out)).toMatchObject({ result: 'done', permission_denials: [] })
      expect(r.requests.map((q) => (q.body as { model: string }).model)).not.toContain('claude-haiku-4-5')
      expect(r.requests).toHaveLength(2)
      expect(existsSync(join(dir, 'w.txt')) && existsSync(join(dir, 'd', 't.txt'))).toBe(true)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
