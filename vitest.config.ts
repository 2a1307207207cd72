import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    testTimeout: 15_000,
    pool: 'forks',
    // Sessions a test runs through the default distribution (it records transcripts) never reach the
    // real home; one home per checkout, so two checkouts' suites running at once do not share it.
    env: { MODLOOP_HOME: join(tmpdir(), `modloop-test-home-${basename(process.cwd())}`) },
    projects: [
      { extends: true, test: { name: 'main', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, 'test/fleet/**'] } },
      // The fleet's tests share one Postgres server, started only when one of them runs.
      { extends: true, test: { name: 'fleet', include: ['test/fleet/**/*.test.ts'], globalSetup: ['test/fleet/postgres-setup.ts'] } },
    ],
  },
})
