// The CLI's code loaded as a `-p` run loads it — the launcher, its flags, the bundle through the
// code cache — and nothing run: what a cold run costs before it does anything. The cold-run
// bench's yardstick for what is left of a target to the session itself. Never the first run after
// a build: a code cache written at its exit would hold only the top level (cold-run.js runs the
// CLI first).
'use strict'
const { join } = require('node:path')
const { launchFlagsFor, requireCached, setLaunchFlags } = require('../../bin/code-cache.cjs')

setLaunchFlags(launchFlagsFor(['-p']), true)
requireCached(join(__dirname, '..', '..', 'dist', 'bin', 'main.cjs'))
