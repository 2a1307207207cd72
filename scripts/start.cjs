// `npm start`: builds when the build is stale, then runs the offline demo in this same process —
// the CLI's launcher as it would run for `modloop demo` — so an up-to-date checkout pays one Node
// start, not two (and no shell between them).
'use strict'
const { execFileSync } = require('node:child_process')
const { join } = require('node:path')
const { isStale } = require('./stale.cjs')

const root = join(__dirname, '..')
if (isStale(root)) execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' })
const bin = join(root, 'bin', 'modloop.cjs')
process.argv = [process.argv[0], bin, 'demo', ...process.argv.slice(2)]
require(bin)
