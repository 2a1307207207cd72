import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SDKMessage } from '../../core/loop/messages.js'
import { runCli, type CliRun } from '../helpers/cli.js'

/** The long session of the compaction tests: this many rounds, each Reading a file of 20 KB. */
export const ROUNDS = 14
export const FILE_CHARS = 20_000

export interface LongProject {
  dir: string
  /** The script step of round `i` (1-based): the model Reads f<i>.txt, after `text` if given. */
  round(i: number, text?: string): { reply: unknown[] }
  run(script: unknown[], env?: Record<string, string>): Promise<CliRun & { messages: SDKMessage[] }>
  remove(): Promise<void>
}

/** A project whose `modloop.config.json` is `config`, holding f1.txt … f14.txt (20 KB each, the first line `<fN>`). */
export async function longProject(config: Record<string, unknown>): Promise<LongProject> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-long-')))
  await mkdir(join(dir, 'home'))
  await writeFile(join(dir, 'modloop.config.json'), JSON.stringify(config))
  for (let i = 1; i <= ROUNDS; i++) {
    const line = (n: number) => (n === 0 ? `<f${i}>` : `line ${n} of f${i} `).padEnd(99, 'x')
    await writeFile(join(dir, `f${i}.txt`), `${Array.from({ length: FILE_CHARS / 100 }, (_, n) => line(n)).join('\n')}\n`)
  }
  return {
    dir,
    round: (i, text) => ({ reply: [...(text ? [{ text }] : []), { tool_use: { name: 'Read', input: { file_path: join(dir, `f${i}.txt`) } } }] }),
    run: async (script, env = {}) => {
      const r = await runCli(['-p', 'Read the files one by one.', '--output-format', 'stream-json', '--verbose'], { script, cwd: dir, env: { MODLOOP_HOME: join(dir, 'home'), ...env } })
      return { ...r, messages: r.out.trim().split('\n').map((l) => JSON.parse(l) as SDKMessage) }
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  }
}
