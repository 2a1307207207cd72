// Builds only when a source, the build config or the bundler script is newer than the bundled CLI
// (scripts/stale.cjs), so an up-to-date checkout is not rebuilt. `npm start` does the same in
// one process with the demo (scripts/start.cjs).
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const { isStale, staleBecause } = createRequire(import.meta.url)('./stale.cjs')

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(import.meta.dirname, '..')
  if (isStale(root)) execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' })
}
