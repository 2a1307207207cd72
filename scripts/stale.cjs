// Whether a checkout needs `npm run build`: no bundled CLI, or a source, the build config or the
// bundler newer than it. CommonJS, so `npm start` (scripts/start.cjs) checks it without Node's
// ES module loader.
'use strict'
const { readdirSync, statSync } = require('node:fs')
const { join } = require('node:path')

const SOURCES = ['index.ts', 'testing.ts', 'core', 'runtime', 'mods', 'hooks-runner', 'cli', 'testing', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/bundle.mjs']

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

/** Whether the checkout at `root` needs a build. */
function isStale(root) {
  let built
  try {
    built = statSync(join(root, 'dist', 'bin', 'main.cjs')).mtimeMs
  } catch {
    return true
  }
  return SOURCES.some((s) => newest(join(root, s)) > built)
}

module.exports = { isStale }
