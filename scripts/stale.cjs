// Whether a checkout needs `npm run build`: no bundled CLI, or a source, the build config or the
// bundler newer than it. CommonJS, so `npm start` (scripts/start.cjs) checks it without Node's
// ES module loader. `npm test`'s bundle step and the tests that run the built CLI ask it too.
'use strict'
const { readdirSync, statSync } = require('node:fs')
const { join, relative } = require('node:path')

const SOURCES = [
  'index.ts', 'testing.ts', 'core', 'runtime', 'mods', 'hooks-runner', 'cli', 'testing', 'package.json', 'package-lock.json',
  'tsconfig.json', 'tsconfig.build.json', 'scripts/bundle.mjs', 'scripts/fast-namespaces.mjs', 'scripts/fetch-globals-inject.mjs',
]

/** A file under `path` modified after `time`, if any (test files excluded: they are not built). */
function newerThan(path, time) {
  let stat
  try {
    stat = statSync(path)
  } catch {
    return undefined
  }
  if (!stat.isDirectory()) return !path.endsWith('.test.ts') && stat.mtimeMs > time ? path : undefined
  for (const entry of readdirSync(path)) {
    const found = entry === 'node_modules' ? undefined : newerThan(join(path, entry), time)
    if (found) return found
  }
  return undefined
}

/**
 * Why the checkout at `root` needs a build: the first source found newer than the bundled CLI
 * (relative to `root`), or `dist/bin/main.cjs` when there is none; undefined when it is up to date.
 */
function staleBecause(root) {
  let built
  try {
    built = statSync(join(root, 'dist', 'bin', 'main.cjs')).mtimeMs
  } catch {
    return 'dist/bin/main.cjs'
  }
  for (const source of SOURCES) {
    const found = newerThan(join(root, source), built)
    if (found) return relative(root, found)
  }
  return undefined
}

/** Whether the checkout at `root` needs a build. */
function isStale(root) {
  return staleBecause(root) !== undefined
}

module.exports = { isStale, staleBecause }
