import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { encodeCwd, projectDir, transcriptPath } from '../../mods/transcripts/store/paths.js'
import { builtCli } from '../helpers/built-cli.js'


/**
 * A modloop home with a session in each of two projects (its transcript, checkpoints, task list),
 * each project's prompt history, and each trusted. Written as the mods write them, not by a -p run,
 * to keep the tests fast.
 */
async function seeded(): Promise<{ home: string; project: string; other: string; env: Record<string, string> }> {
  const home = mkdtempSync(join(tmpdir(), 'modloop-purge-home-'))
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'modloop-purge-proj-')))
  const other = realpathSync(mkdtempSync(join(tmpdir(), 'modloop-purge-other-')))
  const env = { MODLOOP_HOME: home }
  for (const cwd of [project, other]) {
    const id = randomUUID()
    mkdirSync(join(projectDir(cwd, env), id, 'checkpoints'), { recursive: true })
    writeFileSync(transcriptPath(cwd, id, env), `${JSON.stringify({ type: 'user', sessionId: id, cwd })}\n`)
    writeFileSync(join(projectDir(cwd, env), id, 'checkpoints', 'index.jsonl'), '')
    mkdirSync(join(home, 'tasks', id), { recursive: true })
    writeFileSync(join(home, 'tasks', id, '1.json'), '{}')
    mkdirSync(join(home, 'history'), { recursive: true })
    writeFileSync(join(home, 'history', `${encodeCwd(cwd)}.jsonl`), '"hello"\n')
    expect((await runCli(['trust'], { script: [], cwd, env })).code).toBe(0)
  }
  return { home, project, other, env }
}

const purge = (args: string[], s: { project: string; env: Record<string, string> }, stdin?: string) =>
  runCli(['purge', ...args], { script: [], cwd: s.project, env: s.env, ...(stdin !== undefined ? { stdin } : {}) })

const trusted = (home: string) => Object.keys(JSON.parse(readFileSync(join(home, 'trusted.json'), 'utf8')).workspaces)

describe('modloop purge', () => {
  it('--dry-run lists the project\'s sessions, task lists, prompt history and trust, and deletes nothing', async () => {
    const s = await seeded()
    const run = await purge(['.', '--dry-run'], s)
    expect(run.code).toBe(0)
    expect(run.out).toContain(`Purge plan for ${s.project}:`)
    expect(run.out).toContain(`dir:    ${projectDir(s.project, s.env)}\n`)
    expect(run.out).toMatch(/dir: {4}.*\/tasks\/[0-9a-f-]{36}\n {11}tasks for session/)
    expect(run.out).toContain(`file:   ${join(s.home, 'history', `${encodeCwd(s.project)}.jsonl`)}`)
    expect(run.out).toContain(`trust:  ${s.project}\n`)
    expect(run.out).toContain('Dry run: 4 item(s) would be deleted.')
    expect(run.out).not.toContain(s.other)
    expect(existsSync(projectDir(s.project, s.env))).toBe(true)
  })

  it('-y deletes the project\'s data and keeps every other project\'s', async () => {
    const s = await seeded()
    const run = await purge([s.project, '-y'], s)
    expect(run.code).toBe(0)
    expect(run.out).toContain(`Purged 4 items for ${s.project}.`)
    expect(existsSync(projectDir(s.project, s.env))).toBe(false)
    expect(existsSync(join(s.home, 'history', `${encodeCwd(s.project)}.jsonl`))).toBe(false)
    expect(trusted(s.home)).toEqual([s.other])
    expect(existsSync(projectDir(s.other, s.env))).toBe(true)
    expect(existsSync(join(s.home, 'history', `${encodeCwd(s.other)}.jsonl`))).toBe(true)
    const left = await purge(['.', '--dry-run'], s)
    expect(left.code).toBe(1)
    expect(left.err).toBe(`No modloop project data found for ${s.project} under ${s.home}.\n`)
  })

  it('asks once on stdin: "y" deletes, no answer stops with exit 1 and deletes nothing', async () => {
    const s = await seeded()
    const refused = await purge(['.'], s, '')
    expect(refused.code).toBe(1)
    expect(refused.out).toContain(`Delete 4 item(s) for ${s.project} from this computer? This can't be undone. [y/N] `)
    expect(refused.err).toBe('Stopped. Nothing was deleted.\n')
    expect(existsSync(projectDir(s.project, s.env))).toBe(true)
    const agreed = await purge(['.'], s, 'y\n')
    expect(agreed.code).toBe(0)
    expect(existsSync(projectDir(s.project, s.env))).toBe(false)
  })

  it('--all deletes every project\'s data; a path with --all, -i with --all, and no path are refused', async () => {
    const s = await seeded()
    expect((await purge(['.', '--all'], s)).err).toBe('Use either a path or --all, not both.\n')
    expect((await purge(['--all', '-i'], s)).err).toBe("-i/--interactive doesn't work with --all.\n")
    const bare = await purge([], s)
    expect(bare.code).toBe(1)
    expect(bare.err).toContain('modloop purge <path>')
    const all = await purge(['--all', '--yes'], s)
    expect(all.code).toBe(0)
    expect(all.out).toContain('Purged 5 items across all projects.')
    for (const dir of ['projects', 'tasks', 'history']) expect(existsSync(join(s.home, dir))).toBe(false)
    expect(trusted(s.home)).toEqual([])
  })

  it('a real process with stdin not a terminal: -i is refused, and the [y/N] prompt reads stdin', async () => {
    const s = await seeded()
    const cli = (args: string[], input: string) => spawnSync(process.execPath, [builtCli(), 'purge', ...args], { cwd: s.project, env: { ...process.env, ...s.env }, input, encoding: 'utf8' })
    const interactive = cli(['.', '-i'], 'y\n')
    expect(interactive.status).toBe(1)
    expect(interactive.stderr).toContain('Or run without -i to confirm the whole list once')
    expect(existsSync(projectDir(s.project, s.env))).toBe(true)
    const piped = cli(['.'], 'yes\n')
    expect(piped.status).toBe(0)
    expect(existsSync(projectDir(s.project, s.env))).toBe(false)
  })
})
