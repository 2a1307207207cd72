// `npm test`: the Agent SDK test package, the build (when stale) and the CLI bundle first, then the
// type-check of the tests beside the vitest run. The check takes ~15 s on its own on 2 cores, and
// vitest leaves about a quarter of them idle (its tests wait on children, sockets and terminals):
// side by side the check costs the run a few seconds instead. Both run to the end; the exit code
// is the first failure's. Arguments go to vitest (`npm test -- test/cli`).
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ensureAgentSdk from '../test/agent-sdk/install.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(import.meta.url)
const tsc = require.resolve('typescript/bin/tsc')
// vitest exports no path to its command; its package.json names it.
const vitest = join(dirname(require.resolve('vitest/package.json')), require('vitest/package.json').bin.vitest)

/** Runs a Node script to its end; its output goes to ours, or is kept for later when `held`. */
function run(script, args, held = false) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: root, stdio: ['inherit', held ? 'pipe' : 'inherit', held ? 'pipe' : 'inherit'] })
    let output = ''
    if (held) for (const stream of [child.stdout, child.stderr]) stream.setEncoding('utf8').on('data', (d) => { output += d })
    child.once('error', (err) => resolve({ code: 1, output: `${err.message}\n` }))
    child.once('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }))
  })
}

async function step(script, args) {
  const { code } = await run(script, args)
  if (code !== 0) process.exit(code)
}

ensureAgentSdk()
// The build's declarations are what the tests are checked against, and the bundle is made from its
// output: both before anything reads them.
await step(tsc, ['-b', 'tsconfig.build.json'])
await step('scripts/bundle.mjs', [])
// The check writes nothing but its own build info (noEmit), so it may run beside the tests.
const [check, tests] = await Promise.all([run(tsc, ['-b', 'tsconfig.test.json'], true), run(vitest, ['run', ...process.argv.slice(2)])])
if (check.code !== 0) process.stderr.write(`\nThe type-check of the tests failed (tsc -b tsconfig.test.json):\n${check.output}`)
process.exit(tests.code || check.code)
