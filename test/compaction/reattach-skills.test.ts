import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import commandsMod from '../../mods/commands/index.js'
import { tempDir, withOptions, writeTree } from '../context/fixtures.js'
import { runScript } from '../loop/helpers.js'
import { big, bigTool, compactionWith, mainRequests, summary } from './helpers.js'

let root: string
beforeAll(async () => {
  root = await tempDir('reattach-skills')
  await writeTree(root, {
    'project/.claude/skills/checklist/SKILL.md': '---\ndescription: The release checklist\n---\nRELEASE-STEPS: bump the version, tag it, write the notes.\n',
    'project/.claude/skills/style/SKILL.md': `---\ndescription: The house style\n---\nSTYLE-RULES: ${'short sentences. '.repeat(2_000)}\n`,
  })
})
afterAll(() => rm(root, { recursive: true, force: true }))

const skill = (name: string) => ({ reply: [{ tool_use: { name: 'Skill', input: { skill: name } } }] })
const opts = { thresholdTokens: 9_000, keepRecentFraction: 0, microcompact: false }

describe('after compaction (spec loop-and-sdk §3.9)', () => {
  it('the skills the conversation ran come back with their instructions, the latest first, each cut to its share', async () => {
    const r = await runScript([skill('checklist'), skill('style'), big('r1'), big('r2'), summary('SUMMARY'), { reply: 'done' }], 'release it', {
      cwd: join(root, 'project'), mods: [withOptions(commandsMod, { home: join(root, 'home') }), bigTool, compactionWith(opts)],
    })
    expect(r.result.result).toBe('done')
    const after = mainRequests(r.requests).at(-1)!.body.messages[0].content.map((b: any) => b.text).join('\n')
    expect(after).toContain('SUMMARY')
    const style = after.indexOf('The skill "style" was run earlier in this session; its instructions still apply:')
    const checklist = after.indexOf('The skill "checklist" was run earlier in this session; its instructions still apply:')
    expect(style).toBeGreaterThan(0)
    expect(checklist).toBeGreaterThan(style)
    expect(after.slice(checklist)).toContain('RELEASE-STEPS: bump the version, tag it, write the notes.')
    // The long one is cut to its 5,000 tokens' worth.
    expect(after).toMatch(/more characters of the skill\]/)
  })
})
