import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { defineConfig } from 'vitest/config'

// Files that only run code in this process share their worker's module cache: importing the SDK,
// zod, jiti and our own tree again for each of ~100 files cost more CPU than their tests. Files
// that start servers, terminals or CLI runs, or change the process's environment, keep a fresh
// worker each (`isolated`).
const ISOLATED = ['cli', 'faults', 'mcp', 'sessions', 'shell-hooks', 'terminal-ui', 'loader', 'agent-sdk', 'fleet', 'tasks', 'plugins']
  .map((dir) => `test/${dir}/**/*.test.ts`)
const FLEET = 'test/fleet/**/*.test.ts'

// test/agent-sdk holds its own node_modules (the official SDK and its dependencies' tests).
const exclude = ['**/node_modules/**']

const shared = {
  testTimeout: 15_000,
  // Sessions a test runs through the default distribution (it records transcripts) never reach the
  // real home; one home per checkout, so two checkouts' suites running at once do not share it.
  env: { MODLOOP_HOME: join(tmpdir(), `modloop-test-home-${basename(process.cwd())}`) },
}

export default defineConfig({
  test: {
    pool: 'forks',
    // The official Agent SDK that test/agent-sdk drives modloop with, installed apart (see its install.mjs).
    globalSetup: ['test/agent-sdk/install.mjs'],
    // Most tests wait on child processes and sockets, so two workers keep both cores busy; the
    // default (cores - 1) ran the suite one file at a time on a 2-core machine.
    maxWorkers: 2,
    projects: [
      { test: { ...shared, name: 'in-process', include: ['test/**/*.test.ts'], exclude: [...ISOLATED, ...exclude], isolate: false } },
      { test: { ...shared, name: 'isolated', include: ISOLATED, exclude: [FLEET, ...exclude] } },
      // The fleet's files share one Postgres server, started only when one of them runs.
      { test: { ...shared, name: 'fleet', include: [FLEET], globalSetup: ['test/fleet/postgres-setup.ts'] } },
    ],
  },
})
