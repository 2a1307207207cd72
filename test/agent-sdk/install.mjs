// The official Agent SDK, for the test that drives modloop through it, installed apart from
// modloop's own dependencies: its platform binary (~400 MB, an optional dependency the test does
// not need, since it starts modloop instead) is left out, and no install script runs.
// `npm test` runs this before type-checking; vitest runs it as a global setup, so running one test
// file on a fresh clone works too. Cheap when the pinned version is already there.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const dir = dirname(fileURLToPath(import.meta.url))
const SDK = '@anthropic-ai/claude-agent-sdk'

export default function ensureAgentSdk() {
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'))
  const pinned = lock.packages[`node_modules/${SDK}`].version
  const installed = join(dir, 'node_modules', SDK, 'package.json')
  if (existsSync(installed) && JSON.parse(readFileSync(installed, 'utf8')).version === pinned) return
  process.stderr.write(`test/agent-sdk: installing ${SDK}@${pinned} (without its optional platform binary)\n`)
  execFileSync('npm', ['ci', '--omit=optional', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureAgentSdk()
