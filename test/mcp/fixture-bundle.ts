import { build } from 'esbuild'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The MCP tests' stdio server (fixtures/server.mjs), bundled and minified once per run into the
 * run's temporary directory: some fifty tests start it, and loading the MCP SDK and zod module by
 * module took ~0.55 s of CPU a start against ~0.35 s from one file. It is the same server, built
 * with the same SDK. Tests find it through MODLOOP_TEST_MCP_FIXTURE (helpers.ts); a test file run
 * without this setup starts the source.
 */
export default async function setup(): Promise<void> {
  const outfile = join(tmpdir(), 'mcp-fixture', 'server.mjs')
  await build({
    entryPoints: [fileURLToPath(new URL('./fixtures/server.mjs', import.meta.url))],
    bundle: true, minify: true, platform: 'node', format: 'esm', outfile, logLevel: 'warning',
  })
  process.env.MODLOOP_TEST_MCP_FIXTURE = outfile
}
