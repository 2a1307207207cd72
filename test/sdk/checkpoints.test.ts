import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SDKMessage } from '../../core/loop/messages.js'
import bashMod from '../../mods/bash/index.js'
import checkpoints from '../../mods/checkpoints/index.js'
import editMod from '../../mods/edit/index.js'
import readMod from '../../mods/read/index.js'
import transcripts from '../../mods/transcripts/index.js'
import writeMod from '../../mods/write/index.js'
import { fileOf, tempCwd } from '../sessions/helpers.js'
import { runCli } from '../helpers/cli.js'
import { conversation } from './conversation.js'
import { hooksMod, json, makeBox, writeSettings } from '../shell-hooks/helpers.js'

/** The uuid of every prompt, as the caller learns it: the replayed user messages (`replay-user-messages`). */
const promptIds = (seen: SDKMessage[]) => seen.filter((m) => m.type === 'user' && m.isReplay).map((m) => m.uuid!)
const replay = { 'replay-user-messages': null }

const mods = () => [readMod, editMod, writeMod, checkpoints, transcripts]
const call = (name: string, input: Record<string, unknown>) => ({ tool_use: { name, input } })

describe('file checkpoints', () => {
  it('rewindFiles restores three edited files to their state before a prompt; dryRun only counts; /rewind undoes the last prompt', async () => {
    const cwd = await tempCwd('modloop-checkpoints-')
    const [a, b, c] = ['a.txt', 'b.txt', 'c.txt'].map((f) => join(cwd, f)) as [string, string, string]
    writeFileSync(b, 'b1\nb2\n')
    writeFileSync(c, 'c1\nc2\nc3\n')
    const conv = await conversation([
      { reply: [call('Read', { file_path: b }), call('Read', { file_path: c })] },
      { reply: [call('Write', { file_path: a, content: 'new a\n' }), call('Edit', { file_path: b, old_string: 'b1', new_string: 'B1' }), call('Write', { file_path: c, content: 'c replaced\n' })] },
      { reply: 'three files changed' },
      { reply: [call('Edit', { file_path: b, old_string: 'B1', new_string: 'BB1' })] },
      { reply: 'b changed again' },
    ], { cwd, mods: mods(), enableFileCheckpointing: true, extraArgs: replay })
    try {
      expect((await conv.say('change three files')).result).toBe('three files changed')
      expect((await conv.say('change b again')).result).toBe('b changed again')
      expect(readFileSync(b, 'utf8')).toBe('BB1\nb2\n')
      const [first, second] = promptIds(conv.seen) as [string, string]

      expect(await conv.q.rewindFiles(second, { dryRun: true })).toEqual({ canRewind: true, filesChanged: [b], insertions: 1, deletions: 1 })
      expect(readFileSync(b, 'utf8')).toBe('BB1\nb2\n')
      const undo = await conv.say('/rewind')
      expect(undo.result).toContain(`Restored 1 file (+1 -1):\n  ${b}`)
      expect(readFileSync(b, 'utf8')).toBe('B1\nb2\n')

      const dry = await conv.q.rewindFiles(first, { dryRun: true })
      expect(dry).toEqual({ canRewind: true, filesChanged: [a, b, c], insertions: 4, deletions: 3 })
      expect(existsSync(a)).toBe(true)
      expect(await conv.q.rewindFiles(first)).toEqual(dry)
      expect(existsSync(a)).toBe(false)
      expect(readFileSync(b, 'utf8')).toBe('b1\nb2\n')
      expect(readFileSync(c, 'utf8')).toBe('c1\nc2\nc3\n')
      expect(await conv.q.rewindFiles(first)).toEqual({ canRewind: true, filesChanged: [], insertions: 0, deletions: 0 })
      expect(await conv.q.rewindFiles('no-such-message', { dryRun: true })).toMatchObject({ canRewind: false, error: expect.stringContaining('No checkpoint') })
      // A rewind that cannot be done rejects, as the SDK's does; only a dry run answers canRewind: false.
      await expect(conv.q.rewindFiles('no-such-message')).rejects.toThrow('No checkpoint')
    } finally {
      await conv.end()
    }
    // The checkpoints live with the session, beside its transcript.
    const sessionId = conv.seen.find((m) => m.type === 'result')!.session_id
    expect(existsSync(join(fileOf(cwd, sessionId).replace(/\.jsonl$/, ''), 'checkpoints', 'index.jsonl'))).toBe(true)
  })

  it('works after resume: the checkpoints of earlier runs are read back from disk', async () => {
    const cwd = await tempCwd('modloop-checkpoints-')
    const c = join(cwd, 'c.txt')
    writeFileSync(c, 'original\n')
    const one = await conversation([
      { reply: [call('Read', { file_path: c })] },
      { reply: [call('Write', { file_path: c, content: 'first run\n' })] },
      { reply: 'written' },
    ], { cwd, mods: mods(), enableFileCheckpointing: true })
    // Without replays, the result names the prompt it answered.
    const { session_id: sessionId, user_message_uuid: firstPrompt } = await one.say('write c')
    await one.end()
    expect(firstPrompt).toEqual(expect.any(String))

    const two = await conversation([
      { reply: [call('Read', { file_path: c }), call('Write', { file_path: c, content: 'second run\n' })] },
      { reply: 'written again' },
    ], { cwd, mods: mods(), enableFileCheckpointing: true, resume: sessionId })
    try {
      await two.say('write c again')
      expect(readFileSync(c, 'utf8')).toBe('second run\n')
      expect(await two.q.rewindFiles(firstPrompt!)).toEqual({ canRewind: true, filesChanged: [c], insertions: 1, deletions: 1 })
      expect(readFileSync(c, 'utf8')).toBe('original\n')
    } finally {
      await two.end()
    }
  })

  it('a file an earlier prompt wrote is restored as it was when the prompt entered, though a Bash command changed it before the Edit', async () => {
    const cwd = await tempCwd('modloop-checkpoints-')
    const f = join(cwd, 'f.txt')
    const conv = await conversation([
      { reply: [call('Write', { file_path: f, content: 'v1\n' })] },
      { reply: 'wrote v1' },
      { reply: [call('Bash', { command: `echo bash > '${f}'` })] },
      { reply: [call('Read', { file_path: f })] },
      { reply: [call('Edit', { file_path: f, old_string: 'bash', new_string: 'edited' })] },
      { reply: 'edited' },
    ], { cwd, mods: [...mods(), bashMod], enableFileCheckpointing: true, extraArgs: replay })
    try {
      await conv.say('write v1')
      expect((await conv.say('bash, then edit')).result).toBe('edited')
      expect(readFileSync(f, 'utf8')).toBe('edited\n')
      const [first, second] = promptIds(conv.seen) as [string, string]
      expect(await conv.q.rewindFiles(second)).toMatchObject({ canRewind: true, filesChanged: [f] })
      expect(readFileSync(f, 'utf8')).toBe('v1\n')
      expect(await conv.q.rewindFiles(first)).toMatchObject({ canRewind: true, filesChanged: [f] })
      expect(existsSync(f)).toBe(false)
    } finally {
      await conv.end()
    }
  })

  it('a fork can rewind to the prompts of the session it copies, which keeps its own checkpoints', async () => {
    const cwd = await tempCwd('modloop-checkpoints-')
    const c = join(cwd, 'c.txt')
    writeFileSync(c, 'original\n')
    const one = await conversation([
      { reply: [call('Read', { file_path: c }), call('Write', { file_path: c, content: 'first run\n' })] },
      { reply: 'written' },
    ], { cwd, mods: mods(), enableFileCheckpointing: true })
    const { session_id: sessionId, user_message_uuid: firstPrompt } = await one.say('write c')
    await one.end()

    const fork = await conversation([
      { reply: [call('Read', { file_path: c }), call('Write', { file_path: c, content: 'in the fork\n' })] },
      { reply: 'written in the fork' },
    ], { cwd, mods: mods(), enableFileCheckpointing: true, resume: sessionId, forkSession: true })
    try {
      expect((await fork.say('write c in the fork')).session_id).not.toBe(sessionId)
      expect(await fork.q.rewindFiles(firstPrompt!)).toEqual({ canRewind: true, filesChanged: [c], insertions: 1, deletions: 1 })
      expect(readFileSync(c, 'utf8')).toBe('original\n')
    } finally {
      await fork.end()
    }
    const index = (id: string) => readFileSync(join(fileOf(cwd, id).replace(/\.jsonl$/, ''), 'checkpoints', 'index.jsonl'), 'utf8').trim().split('\n')
    const forkId = fork.seen.find((m) => m.type === 'result')!.session_id
    expect(index(sessionId)).toHaveLength(2)
    expect(index(forkId)).toHaveLength(4)
  })

  it('is off unless asked for', async () => {
    const cwd = await tempCwd('modloop-checkpoints-')
    const conv = await conversation([{ reply: 'hi' }], { cwd, mods: mods() })
    try {
      await conv.say('hello')
      expect(await conv.q.rewindFiles('anything', { dryRun: true })).toEqual({ canRewind: false, error: expect.stringContaining('not enabled') })
      await expect(conv.q.rewindFiles('anything')).rejects.toThrow('not enabled')
    } finally {
      await conv.end()
    }
  })

  it('-p --checkpoint keeps checkpoints beside the transcript', async () => {
    const cwd = await tempCwd('modloop-checkpoints-')
    writeFileSync(join(cwd, 'modloop.config.json'), JSON.stringify({ mods: ['write', 'checkpoints', 'transcripts'] }))
    const file = join(cwd, 'new.txt')
    const script = [{ reply: [call('Write', { file_path: file, content: 'x\n' })] }, { reply: 'made it' }]
    const r = await runCli(['-p', 'make a file', '--checkpoint', '--output-format', 'json'], { script, cwd, env: { MODLOOP_HOME: process.env.MODLOOP_HOME } })
    expect(r.code).toBe(0)
    const dir = join(fileOf(cwd, JSON.parse(r.out).session_id).replace(/\.jsonl$/, ''), 'checkpoints')
    const lines = readFileSync(join(dir, 'index.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.map((l) => l.kind)).toEqual(['turn', 'file'])
    expect(lines[1]).toMatchObject({ path: file, blob: null })
  })

  it('-p --resume <id> --rewind-files <prompt id> restores the files without a turn, as Claude Code does; errors exit 1; CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING keeps them in -p', async () => {
    const cwd = await tempCwd('modloop-checkpoints-')
    writeFileSync(join(cwd, 'modloop.config.json'), JSON.stringify({ mods: ['write', 'checkpoints', 'transcripts'] }))
    const file = join(cwd, 'new.txt')
    const env = { MODLOOP_HOME: process.env.MODLOOP_HOME }
    const script = [{ reply: [call('Write', { file_path: file, content: 'x\n' })] }, { reply: 'made it' }]
    // Checkpoints asked for through the environment, as the Agent SDK asks (and Claude Code's -p takes it too).
    const made = JSON.parse((await runCli(['-p', 'make a file', '--output-format', 'json'], { script, cwd, env: { ...env, CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING: '1' } })).out)
    expect(existsSync(file)).toBe(true)
    const rewound = await runCli(['-p', '--resume', made.session_id, '--rewind-files', made.user_message_uuid], { script: [], cwd, env })
    expect(rewound).toMatchObject({ code: 0, out: `Files rewound to state at message ${made.user_message_uuid}\n`, requests: [] })
    expect(existsSync(file)).toBe(false)
    const unknown = await runCli(['-p', '--resume', made.session_id, '--rewind-files', 'no-such-prompt'], { script: [], cwd, env })
    expect(unknown).toMatchObject({ code: 1, out: '', err: expect.stringContaining('No checkpoint for user message no-such-prompt') })
    const withPrompt = await runCli(['-p', 'hi', '--resume', made.session_id, '--rewind-files', made.user_message_uuid], { script: [], cwd, env })
    expect(withPrompt).toMatchObject({ code: 1, err: expect.stringContaining('takes no prompt'), requests: [] })
    const noSession = await runCli(['-p', '--rewind-files', made.user_message_uuid], { script: [], cwd, env })
    expect(noSession).toMatchObject({ code: 1, err: expect.stringContaining('--resume') })
  })

  it('keeps the file a PreToolUse hook redirected the Write to, so the rewind restores the file the tool changed', async () => {
    const box = await makeBox()
    try {
      const [asked, real] = ['asked.txt', 'real.txt'].map((f) => join(box.project, f)) as [string, string]
      const redirect = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { file_path: real, content: 'redirected' } } }
      await writeSettings(box, { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: json(redirect) }] }] })
      const conv = await conversation([
        { reply: [call('Write', { file_path: asked, content: 'asked' })] },
        { reply: 'wrote it' },
      ], { cwd: box.project, mods: [...mods(), hooksMod(box)], enableFileCheckpointing: true, extraArgs: replay, env: { MODLOOP_HOME: join(box.root, 'mh') } })
      try {
        await conv.say('write a file')
        expect([existsSync(asked), readFileSync(real, 'utf8')]).toEqual([false, 'redirected'])
        expect(await conv.q.rewindFiles(promptIds(conv.seen)[0]!)).toMatchObject({ canRewind: true, filesChanged: [real] })
        expect(existsSync(real)).toBe(false)
      } finally {
        await conv.end()
      }
    } finally {
      await box.remove()
    }
  })
})
