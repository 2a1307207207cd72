// `npm start`'s build step: builds only when a source, the build config or the bundler script is
// newer than the bundled CLI, so an up-to-date checkout starts the demo at once.
import { execFileSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const SOURCES = ['index.ts', 'testing.ts', 'core', 'mods', 'hooks-runner', 'cli', 'testing', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/bundle.mjs']

/** The newest modification time under a file or directory (test files excluded: they are not built). */
function newest(path) {
  let stat
  try {
    stat = statSync(path)
  } catch {
    return 0
  }
  if (!stat.isDirectory()) return path.endsWith('.test.ts') ? 0 : stat.mtimeMs
  let latest = 0
  for (const entry of readdirSync(path)) if (entry !== 'node_modules') latest = Math.max(latest, newest(join(path, entry)))
  return latest
}

/** Whether the checkout at `root` needs a build: no bundled CLI, or a source newer than it. */
export function isStale(root) {
  let built
  try {
    built = statSync(join(root, 'dist', 'bin', 'main.cjs')).mtimeMs
  } catch {
    return true
  }
  return SOURCES.some((s) => newest(join(root, s)) > built)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(import.meta.dirname, '..')
  if (isStale(root)) execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' })
}
