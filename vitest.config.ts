import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 15_000,
    pool: 'forks',
    // The official Agent SDK that test/agent-sdk drives modloop with, installed apart (see its install.mjs).
    globalSetup: ['test/agent-sdk/install.mjs'],
    // Sessions a test runs through the default distribution (it records transcripts) never reach the
    // real home; one home per checkout, so two checkouts' suites running at once do not share it.
    env: { MODLOOP_HOME: join(tmpdir(), `modloop-test-home-${basename(process.cwd())}`) },
  },
})
