import { spawnSync } from 'node:child_process'
import { chmod, chown, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtCli, runNoInput } from '../helpers/built-cli.js'
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js'

const cli = builtCli()
// A directory its user may not write to only stops someone who is not root: as root, the CLI runs as nobody.
const asRoot = process.getuid?.() === 0
const user = asRoot ? { uid: 65534, gid: 65534 } : {}
// A checkout nobody may not read (under a private home) cannot run the CLI as nobody at all.
const runnable = !asRoot || spawnSync(process.execPath, [cli, '--version'], { ...user, stdio: 'ignore' }).status === 0

let dir: string
let server: FakeAnthropic

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'modloop-in-place-'))
  await mkdir(join(dir, 'locked'))
  await writeFile(join(dir, 'locked', 'edit.txt'), 'hello\nworld\n')
  await writeFile(join(dir, 'locked', 'write.txt'), 'old\n')
  if (asRoot) for (const p of [dir, join(dir, 'locked'), join(dir, 'locked', 'edit.txt'), join(dir, 'locked', 'write.txt')]) await chown(p, 65534, 65534)
  await chmod(dir, 0o755)
  await chmod(join(dir, 'locked'), 0o555)
})
afterAll(async () => {
  await server?.close()
  await chmod(join(dir, 'locked'), 0o755)
  await rm(dir, { recursive: true, force: true })
})

describe.runIf(process.platform === 'linux' && runnable)('Edit and Write of a writable file in a directory that is not', () => {
  it('change the file in place (same inode) rather than fail on the temp file beside it', async () => {
    const locked = (name: string) => join(dir, 'locked', name)
    const inodes = [(await stat(locked('edit.txt'))).ino, (await stat(locked('write.txt'))).ino]
    server = await startFakeAnthropic({ script: [
      // The default model may change a file it has not read (inside the working directory).
      { reply: [
        { tool_use: { name: 'Edit', input: { file_path: locked('edit.txt'), old_string: 'world', new_string: 'WORLD' } } },
        { tool_use: { name: 'Write', input: { file_path: locked('write.txt'), content: 'new\n' } } },
      ] },
      { reply: 'done' },
    ] })
    const run = await runNoInput(process.execPath, [cli, '-p', 'go', '--dangerously-skip-permissions', '--no-session-persistence'], {
      cwd: dir, ...user,
      env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', HOME: dir, MODLOOP_HOME: join(dir, 'home'), IS_SANDBOX: '1' },
    })
    expect(run.code, run.err).toBe(0)
    const results = (server.requests.at(-1)!.body.messages as { content: unknown }[])
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []) as { type: string; is_error?: boolean; content: unknown }[])
      .filter((b) => b.type === 'tool_result' && b.is_error)
    expect(results).toEqual([])
    expect(await readFile(locked('edit.txt'), 'utf8')).toBe('hello\nWORLD\n')
    expect(await readFile(locked('write.txt'), 'utf8')).toBe('new\n')
    expect([(await stat(locked('edit.txt'))).ino, (await stat(locked('write.txt'))).ino]).toEqual(inodes)
  })
})
