import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hasTmux, project, send, tmuxSuite, type Where } from './suite.js'

const suite = tmuxSuite(import.meta.filename)
const open = suite.open

/** User-level settings hooks (project hooks would first need the review an interactive session asks for). */
async function userHooks(where: Where, hooks: Record<string, unknown>): Promise<void> {
  await mkdir(join(where.home, '.claude'), { recursive: true })
  await writeFile(join(where.home, '.claude', 'settings.json'), JSON.stringify({ hooks }))
}

/** The session transcripts under a dir (not the provenance traces beside them, which record the rewrite). */
const transcriptText = (dir: string): string => readdirSync(dir, { recursive: true, withFileTypes: true })
  .filter((d) => d.isFile() && d.name.endsWith('.jsonl') && !d.name.endsWith('.trace.jsonl')).map((d) => readFileSync(join(d.parentPath, d.name), 'utf8')).join('')

describe.runIf(hasTmux)('settings hooks in the interactive terminal (tmux, 80×24)', () => {
  it('a MessageDisplay hook rewrites the streamed answer on screen; the transcript keeps what the model said', async () => {
    const where = await project()
    const shout = join(where.home, 'shout.mjs')
    await writeFile(shout, [
      "import { readFileSync } from 'node:fs'",
      "const e = JSON.parse(readFileSync(0, 'utf8'))",
      "process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'MessageDisplay', displayContent: e.delta.toUpperCase() } }))",
    ].join('\n'))
    await userHooks(where, { MessageDisplay: [{ hooks: [{ type: 'command', command: `node ${shout}` }] }] })
    const p = await open({ steps: [{ reply: 'quiet words on the first line\nand softer words after them', chunkDelayMs: 5 }] }, where)
    await send(p, 'say something')
    const screen = await p.waitFor('AND SOFTER WORDS AFTER THEM', 15_000)
    expect(screen).toContain('QUIET WORDS ON THE FIRST LINE')
    expect(screen).not.toContain('quiet words')
    expect(screen).not.toContain('softer words')
    const transcript = transcriptText(join(where.home, 'projects'))
    expect(transcript).toContain('quiet words on the first line\\nand softer words after them')
    expect(transcript).not.toContain('QUIET WORDS')
  }, 30_000)

  it('a PreToolUse "defer" is ignored with a warning: the call is not run and the turn goes on', async () => {
    const where = await project()
    await userHooks(where, {
      PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: `printf '%s' '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'defer' } })}'` }] }],
    })
    const file = join(where.cwd, 'held.txt')
    const p = await open({
      steps: [
        { reply: [{ tool_use: { name: 'Write', input: { file_path: file, content: 'never' } } }] },
        { reply: 'carried on without writing' },
      ],
    }, where)
    await send(p, 'write the file')
    const screen = await p.waitFor('carried on without writing', 15_000)
    expect(screen).toContain('Warning: A permission check deferred Write, but a deferral is honoured only in')
    expect(existsSync(file)).toBe(false)
  }, 30_000)
})
