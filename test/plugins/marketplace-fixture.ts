import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, realpath } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Io } from '../../cli/io.js'
import { main } from '../../cli/main.js'
import { writeTree } from './fixture.js'

/**
 * A marketplace folder listing one plugin kept in it (`./plugins/hello`) with a command, a skill,
 * an agent and a UserPromptSubmit hook, as a published marketplace lays it out.
 */
export async function writeMarketplace(root: string, name = 'localmp'): Promise<void> {
  await writeTree(root, {
    '.claude-plugin/marketplace.json': JSON.stringify({ name, owner: { name: 'Tester' }, plugins: [{ name: 'hello', source: './plugins/hello', description: 'Says hello' }] }),
    'plugins/hello/.claude-plugin/plugin.json': JSON.stringify({ name: 'hello', version: '1.0.0', description: 'hello plugin' }),
    'plugins/hello/commands/hi.md': '---\ndescription: Say hi\n---\nSay HI-CMD to $ARGUMENTS\n',
    'plugins/hello/skills/greet/SKILL.md': '---\nname: greet\ndescription: Greets\n---\nGREET SKILL BODY\n',
    'plugins/hello/agents/helper.md': '---\nname: helper\ndescription: helper agent\n---\nYou are HELPER\n',
  })
}

/** Makes `dir` a git repository with everything in it committed. */
/** A fresh temp folder holding a home, a project and a marketplace folder (`mp`) written by writeMarketplace. */
export async function marketplaceDirs(prefix: string): Promise<{ dir: string; home: string; project: string; market: string }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)))
  const dirs = { dir, home: join(dir, 'home'), project: join(dir, 'project'), market: join(dir, 'mp') }
  await mkdir(dirs.home)
  await mkdir(dirs.project)
  await writeMarketplace(dirs.market)
  return dirs
}

export function gitCommitAll(dir: string, message = 'init'): void {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args], { cwd: dir, stdio: 'ignore' })
  git('init', '-q')
  git('add', '-A')
  git('commit', '-qm', message)
}

/** Runs `modloop plugin …` in-process in `cwd` with `home` as HOME, capturing what it prints. */
export async function plugin(args: string[], cwd: string, home: string): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const io: Io = {
    stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) },
    cwd, env: { HOME: home, MODLOOP_HOME: join(home, '.modloop'), PATH: process.env.PATH },
  }
  return { code: await main(['plugin', ...args], io), out, err }
}
