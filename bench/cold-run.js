// A cold `modloop -p` one-turn run against the fake Messages API server on loopback: process start
// to exit, in a git repository (the default distribution's git snapshot runs) and outside one,
// alternating with `node -e ''` (the yardstick: Node's own start and exit) and, when a `claude`
// binary is on the PATH, with Claude Code answering the same prompt from the same server.
// Each Node process reports its CPU time and peak RSS through a preload (lib/usage.cjs); Claude
// Code's come from /usr/bin/time when it is there. Medians of BENCH_RUNS rounds (default 9).
// BENCH_CLAUDE names a Claude Code binary that is not on the PATH: the npm package
// @anthropic-ai/claude-code installs it as node_modules/@anthropic-ai/claude-code-linux-x64/claude
// (its install script, which would copy it to the package's bin, is not run by npm 11's defaults).
// Beside them, the CLI's code loaded and nothing run (lib/load-only.cjs) shows what of the
// target is left for the session itself.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { tmpdir } from 'node:os'
import { fileURLToPath } from 'node:url'
import { startFakeAnthropic } from '../dist/testing/fake-anthropic.js'
import { median, row } from './lib/rows.js'

const RUNS = Number(process.env.BENCH_RUNS || 9)
const bin = fileURLToPath(new URL('../bin/modloop.cjs', import.meta.url))
const usagePreload = fileURLToPath(new URL('./lib/usage.cjs', import.meta.url))
const loadOnly = fileURLToPath(new URL('./lib/load-only.cjs', import.meta.url))
const bundleDir = fileURLToPath(new URL('../dist/bin/', import.meta.url))
const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined
const claude = process.env.BENCH_CLAUDE || process.env.PATH?.split(delimiter).map((d) => join(d, 'claude')).find((p) => existsSync(p))

const work = mkdtempSync(join(tmpdir(), 'modloop-cold-'))
const repo = join(work, 'repo')
const plain = join(work, 'plain')
for (const dir of [repo, plain]) execFileSync('mkdir', ['-p', dir])
writeFileSync(join(repo, 'README.md'), '# a project\n')
// As most projects are: a package.json without a modloop key (it once cost ~30 ms to learn that).
writeFileSync(join(repo, 'package.json'), JSON.stringify({ name: 'a-project', version: '1.0.0', scripts: { test: 'node --test' } }, null, 2))
const git = (...args) => execFileSync('git', args, { cwd: repo, stdio: 'ignore', env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' } })
git('init', '-q')
git('add', '.')
git('commit', '-q', '-m', 'start')

const server = await startFakeAnthropic({ script: Array.from({ length: 40 * RUNS + 40 }, () => ({ reply: 'Hello from the fake server.' })) })
const usageFile = join(work, 'usage.jsonl')
const env = {
  ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'bench', BENCH_USAGE_FILE: usageFile,
  // Claude Code: no update checks, telemetry or other traffic beside the one request.
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1',
}

const variants = [
  { name: "node -e ''", node: ['-e', ''], cwd: repo },
  { name: 'modloop (git repository)', node: [bin, '-p', 'hi'], cwd: repo, expect: 'Hello' },
  { name: 'modloop (no repository)', node: [bin, '-p', 'hi'], cwd: plain, expect: 'Hello' },
  { name: 'modloop (code loaded only)', node: [loadOnly], cwd: repo },
  ...(claude ? [{ name: 'claude (git repository)', command: claude, args: ['-p', 'hi'], cwd: repo, expect: 'Hello' }] : []),
]

/** One run: wall time from this process, CPU and peak RSS from the child's own report. */
function once(v) {
  writeFileSync(usageFile, '')
  const timeFile = join(work, 'time.txt')
  const [file, args] = v.node
    ? [process.execPath, ['-r', usagePreload, ...v.node]]
    : timeBin ? [timeBin, ['-f', '%U %S %M', '-o', timeFile, v.command, ...v.args]] : [v.command, v.args]
  const start = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: v.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    child.on('error', reject)
    child.on('close', (code) => {
      const ms = performance.now() - start
      if (code !== 0 || (v.expect && !out.includes(v.expect))) return reject(new Error(`${v.name} failed (${code}): ${out.slice(-500)}`))
      if (v.node) {
        const u = JSON.parse(readFileSync(usageFile, 'utf8').trim().split('\n')[0])
        return resolve({ ms, cpuMs: u.cpuMs + u.childrenMs, rssMiB: u.rssMiB })
      }
      if (!timeBin) return resolve({ ms, cpuMs: NaN, rssMiB: NaN })
      const [user, sys, kb] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1).split(' ').map(Number)
      resolve({ ms, cpuMs: (user + sys) * 1000, rssMiB: kb / 1024 })
    })
  })
}

// A code cache rewritten between runs was rejected: every run then compiled the bundle anew.
const cacheId = () => readdirSync(bundleDir).filter((n) => n.endsWith('.cache')).map((n) => `${n}:${statSync(bundleDir + n).ino}`).join()

try {
  // The first run after a build writes the CLI's code cache; Claude Code's first run warms its own caches.
  const first = {}
  for (const v of [...variants]) {
    try {
      first[v.name] = (await once(v)).ms
    } catch (err) {
      if (v.node) throw err
      console.log(`cold run: ${v.name} left out: ${err.message.split('\n')[0]}`)
      variants.splice(variants.indexOf(v), 1)
    }
  }
  const warmCache = cacheId()
  const runs = new Map(variants.map((v) => [v.name, []]))
  // The order turns each round: a run just after a heavier one measured ~14 ms slower here (the
  // machine still reclaiming the last one's memory), so each variant follows each other in turn.
  for (let i = 0; i < RUNS; i++) {
    for (let k = 0; k < variants.length; k++) {
      const v = variants[(i + k) % variants.length]
      runs.get(v.name).push(await once(v))
    }
  }
  if (cacheId() !== warmCache) console.log('warning: the CLI code cache was rewritten between runs (rejected): these runs compiled the bundle from scratch')

  const fig = (name) => {
    const rs = runs.get(name)
    return { ms: median(rs.map((r) => r.ms)), cpuMs: median(rs.map((r) => r.cpuMs)), rssMiB: Math.max(...rs.map((r) => r.rssMiB)) }
  }
  for (const v of variants) {
    const f = fig(v.name)
    console.log(`cold run: ${v.name.padEnd(26)} ${f.ms.toFixed(0).padStart(5)} ms wall, ${f.cpuMs.toFixed(0).padStart(4)} ms CPU (user+sys, children included), peak RSS ${f.rssMiB.toFixed(1)} MiB; first run ${first[v.name].toFixed(0)} ms`)
  }
  const node = fig("node -e ''")
  const ours = fig('modloop (git repository)')
  const loaded = fig('modloop (code loaded only)')
  const detail = `${ours.ms.toFixed(0)} ms vs ${node.ms.toFixed(0)} ms wall (medians of ${RUNS} alternating runs); CPU ${ours.cpuMs.toFixed(0)} vs ${node.cpuMs.toFixed(0)} ms (${(ours.cpuMs / node.cpuMs).toFixed(2)}×); the code loaded and nothing run: ${loaded.ms.toFixed(0)} ms (${(loaded.ms / node.ms).toFixed(2)}×)`
  row("cold -p one-turn in a git repository, × node -e ''", ours.ms / node.ms, { max: 1.8, unit: '×', detail, digits: 2 })
  if (runs.has('claude (git repository)')) {
    const cc = fig('claude (git repository)')
    row('cold -p one-turn in a git repository, × Claude Code', ours.ms / cc.ms, { max: 0.25, unit: '×', digits: 2, detail: `${ours.ms.toFixed(0)} ms vs ${cc.ms.toFixed(0)} ms wall; CPU ${ours.cpuMs.toFixed(0)} vs ${cc.cpuMs.toFixed(0)} ms; RSS ${ours.rssMiB.toFixed(0)} vs ${cc.rssMiB.toFixed(0)} MiB` })
  } else {
    console.log('cold run: no `claude` on the PATH: the Claude Code comparison is left out (node -e \'\' is the yardstick)')
  }
  row('cold -p one-turn: peak RSS', ours.rssMiB, { max: 70, unit: 'MiB', detail: `the most of ${RUNS} runs; node -e '' ${node.rssMiB.toFixed(1)} MiB` })
} finally {
  await server.close()
  rmSync(work, { recursive: true, force: true })
}
