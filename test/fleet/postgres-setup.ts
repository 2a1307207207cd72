import type { TestProject } from 'vitest/node'
import { startPostgres } from '../../scripts/embedded-postgres.mjs'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared server's URL without a database: `postgres://user:password@127.0.0.1:port/`. */
    postgresServer: string
  }
}

/**
 * One real Postgres for every fleet test file (scripts/embedded-postgres.mjs), stopped and deleted
 * after the run; each test file makes a database of its own on it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres()
  project.provide('postgresServer', server.url)
  return server.stop
}
