import { defineConfig } from 'vitest/config'
import { SlowFirst } from './test/sequencer.js'

// Every file shares its worker's module cache (isolate: false): a fresh process per file cost more
// than most files' tests — each imported vitest, the SDK, zod, jiti and our tree again, ~130 s of
// CPU a run on a 2-core machine. A file that changes the process (its environment, a stub) puts it
// back in an afterEach or finally; a worker runs one file at a time, so no other file sees it meanwhile.
const FLEET = 'test/fleet/**/*.test.ts'

// test/agent-sdk holds its own node_modules (the official SDK and its dependencies' tests).
const exclude = ['**/node_modules/**']

const shared = {
  testTimeout: 15_000,
  isolate: false,
  // MODLOOP_HOME is the run's own (see temp-root.ts), so two checkouts' suites never share one.
  // CI runs as root: the CLI refuses --dangerously-skip-permissions there unless it is told it is a sandbox.
  // A proxy of the machine's would take the model client's requests to the loopback fake servers too
  // (the client proxies loopback, as Claude Code does): empty, the variables count as unset.
  env: {
    IS_SANDBOX: '1',
    HTTPS_PROXY: '', https_proxy: '', HTTP_PROXY: '', http_proxy: '',
  },
}

export default defineConfig({
  test: {
    pool: 'forks',
    // The official Agent SDK that test/agent-sdk drives modloop with, installed apart (see its
    // install.mjs); the run's own temporary directory (see temp-root.ts); the MCP tests' server,
    // bundled into it (see fixture-bundle.ts).
    globalSetup: ['test/agent-sdk/install.mjs', 'test/temp-root.ts', 'test/mcp/fixture-bundle.ts'],
    // Most tests wait on child processes, sockets and terminals under tmux, so workers past the
    // cores keep them busy: on 2 cores three took the suite from 280-281 s to 237-240 s (two runs
    // each, all green); the default (cores - 1) ran it one file at a time.
    maxWorkers: 3,
    // The slowest files first on a fresh clone too (see sequencer.ts).
    sequence: { sequencer: SlowFirst },
    projects: [
      { test: { ...shared, name: 'modloop', include: ['test/**/*.test.ts'], exclude: [FLEET, ...exclude] } },
      // The fleet's files share one Postgres server, started only when one of them runs.
      { test: { ...shared, name: 'fleet', include: [FLEET], globalSetup: ['test/fleet/postgres-setup.ts'] } },
    ],
  },
})
