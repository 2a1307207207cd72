// Settings hooks: how parallel ten matching hooks are, and what the runner adds per hook beyond
// the process spawn itself. Run after `npx tsc -p tsconfig.build.json`.
import { spawn } from 'node:child_process'
import { resolveHooks } from '../dist/hooks-runner/resolve-hooks.js'
import { runHooks } from '../dist/hooks-runner/run-hooks.js'

const source = { kind: 'project', file: 'bench', label: 'Project Settings', dedupClass: 'settings' }
const configFor = (commands) =>
  resolveHooks([{ source, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: commands.map((command) => ({ type: 'command', command })) }] } }]).config
const input = { session_id: 'bench', cwd: process.cwd(), tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: 'toolu_1' }
const options = (config) => ({ config, projectDir: process.cwd() })

// Distinct commands, so de-duplication does not fold them into one.
const work = (i) => `sleep 0.02; : ${i}`
const ten = configFor(Array.from({ length: 10 }, (_, i) => work(i)))
const one = configFor([work(0)])
const trivial = configFor(['true'])
const trivialTen = configFor(Array.from({ length: 10 }, (_, i) => `true ${i}`))

function bareSpawn() {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', 'true'], { detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
    child.stdin.on('error', () => {})
    child.stdin.end('{}\n')
    child.stdout.resume()
    child.stderr.resume()
    child.on('close', resolve)
  })
}

const mid = (times) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)]
async function time(fn) {
  const start = performance.now()
  await fn()
  return performance.now() - start
}
async function median(n, fn) {
  const times = []
  for (let i = 0; i < n; i++) times.push(await time(fn))
  return mid(times)
}
/** Medians of two workloads measured in alternation, so machine noise hits both alike. */
async function paired(n, a, b) {
  const ta = []
  const tb = []
  for (let i = 0; i < n; i++) {
    ta.push(await time(a))
    tb.push(await time(b))
  }
  return [mid(ta), mid(tb)]
}

for (let i = 0; i < 10; i++) {
  await runHooks('PreToolUse', input, options(trivial))
  await bareSpawn()
}
const tenMs = await median(15, () => runHooks('PreToolUse', input, options(ten)))
const oneMs = await median(15, () => runHooks('PreToolUse', input, options(one)))
const [hookMs, spawnMs] = await paired(301, () => runHooks('PreToolUse', input, options(trivial)), bareSpawn)
const [hookTenMs, spawnTenMs] = await paired(101, () => runHooks('PreToolUse', input, options(trivialTen)), () => Promise.all(Array.from({ length: 10 }, bareSpawn)))

console.log(
  `hooks: 10 parallel PreToolUse hooks ${tenMs.toFixed(0)} ms vs 1 hook ${oneMs.toFixed(0)} ms (each sleeps 20 ms); ` +
  `runner overhead per hook ${(hookMs - spawnMs).toFixed(2)} ms (runHooks of \`true\` ${hookMs.toFixed(2)} ms vs bare spawn of sh -c true ${spawnMs.toFixed(2)} ms; ` +
  `10 at once ${((hookTenMs - spawnTenMs) / 10).toFixed(2)} ms per hook)`,
)
