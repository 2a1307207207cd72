// The gap per tool round: ten sequential Bash (`echo`) or Read rounds through the CLI (`modloop -p`)
// against the fake server on loopback, timed at the server: from the end of the response that
// asked for the tool to the arrival of the next request. The model's time is not in it; the
// client's is all of it (reading the stream, permission and hook checks, running the tool, the
// transcript, building and sending the next request). Three yardsticks: Node spawning `sh -c 'echo'`;
// a bare client (bench/lib/bare-client.js) that does nothing between rounds, whose gap is what
// loopback, scheduling and the server's reading and parsing of a request of the same size cost;
// and modloop's model client alone (bench/lib/model-client.js), the real SDK doing nothing else,
// whose gap is the floor the SDK sets under any round.
//
// Two paces of model. Streamed, as a model answers: the first event after 20 ms, then one every
// 3 ms (~15 ms for a tool call; a real model takes hundreds). A client may work while the answer
// streams (read it as it comes, start the next command's bash), which is what a user meets. And at
// once, the whole answer in one write: there every piece of the client's work is in the gap.
// Printed beside the rows: a Read round in a project with a PreToolUse command hook (a process
// per call), and a long conversation's rounds (their requests carry ~350 KB).
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startFakeAnthropic } from '../dist/testing/fake-anthropic.js'
import { median, row } from './lib/rows.js'

const ROUNDS = 10
const LONG_ROUNDS = 100
const RUNS = Number(process.env.BENCH_RUNS || 5)
const bin = fileURLToPath(new URL('../bin/modloop.cjs', import.meta.url))
const bare = fileURLToPath(new URL('./lib/bare-client.js', import.meta.url))
const modelClient = fileURLToPath(new URL('./lib/model-client.js', import.meta.url))
// The model client runs from dist/ without the CLI's code cache: its first requests compile.
const MODEL_CLIENT_WARMUP = 5

const cwd = mkdtempSync(join(tmpdir(), 'modloop-rounds-'))
writeFileSync(join(cwd, 'notes.txt'), Array.from({ length: 40 }, (_, i) => `line ${i} of the notes`).join('\n'))
const inputs = {
  Bash: (i) => ({ command: `echo round ${i}`, description: 'Print the round' }),
  Read: () => ({ file_path: join(cwd, 'notes.txt') }),
}

// The size of the last request a Read run sent, for the bare client to send as much.
let lastBodyBytes = 0

export const PACES = { streamed: { delayMs: 20, chunkDelayMs: 3 }, 'at once': {} }

// A project whose settings have a PreToolUse hook on every tool: a process per call.
const hooked = join(cwd, 'hooked')
mkdirSync(join(hooked, '.claude'), { recursive: true })
writeFileSync(join(hooked, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: '.*', hooks: [{ type: 'command', command: 'true' }] }] } }))

/** The gaps (ms) of one CLI run of ten rounds of `tool`, the model answering at `pace`, in `where`. */
async function gaps(tool, pace, where = cwd) {
  const script = [...Array.from({ length: ROUNDS }, (_, i) => ({ reply: [{ tool_use: { name: tool, input: inputs[tool](i) } }], ...pace })), { reply: 'Done.' }]
  const server = await startFakeAnthropic({ script })
  try {
    const env = { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'bench', MODLOOP_HOME: join(cwd, 'home'), HOME: cwd }
    const child = spawn(process.execPath, [bin, '-p', 'go', '--allowedTools', tool], { cwd: where, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    const code = await new Promise((resolve) => child.on('close', resolve))
    const r = server.requests
    if (code !== 0 || r.length !== ROUNDS + 1) throw new Error(`${tool} rounds failed (${code}, ${r.length} requests): ${out}`)
    lastBodyBytes = Buffer.byteLength(JSON.stringify(r.at(-1).body))
    return r.slice(1).map((req, i) => req.receivedAt - r[i].answeredAt)
  } finally {
    await server.close()
  }
}

/** The gaps (ms) of `client` (a script as bench/lib/bare-client.js) sending requests of `bytes` each, its first `warmup` left out. */
async function clientGaps(client, bytes, pace, warmup = 0) {
  const script = [...Array.from({ length: warmup + ROUNDS }, () => ({ reply: [{ tool_use: { name: 'Read', input: { file_path: join(cwd, 'notes.txt') } } }], ...pace })), { reply: 'Done.' }]
  const server = await startFakeAnthropic({ script })
  try {
    const child = spawn(process.execPath, [client, server.url, String(warmup + ROUNDS + 1), String(bytes)], { stdio: ['ignore', 'ignore', 'inherit'] })
    const code = await new Promise((resolve) => child.on('close', resolve))
    const r = server.requests
    if (code !== 0 || r.length !== warmup + ROUNDS + 1) throw new Error(`${client} failed (${code}, ${r.length} requests)`)
    return r.slice(1).map((req, i) => req.receivedAt - r[i].answeredAt).slice(warmup)
  } finally {
    await server.close()
  }
}

/**
 * A long conversation: LONG_ROUNDS Read rounds of distinct 60-line files, answers at once, in one
 * run. The last 20 gaps and the size of their requests: what a round costs once the request
 * carries a few hundred KB of conversation (its encoding and writing grow with it).
 */
async function longConversation() {
  const files = Array.from({ length: LONG_ROUNDS }, (_, i) => {
    const file = join(cwd, `long-${i}.txt`)
    writeFileSync(file, Array.from({ length: 60 }, (_, j) => `line ${j} of file ${i}: some text of a realistic length`).join('\n'))
    return file
  })
  const server = await startFakeAnthropic({ script: [...files.map((file_path) => ({ reply: [{ tool_use: { name: 'Read', input: { file_path } } }] })), { reply: 'Done.' }] })
  try {
    const env = { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'bench', MODLOOP_HOME: join(cwd, 'home'), HOME: cwd }
    const child = spawn(process.execPath, [bin, '-p', 'go', '--allowedTools', 'Read'], { cwd, env, stdio: ['ignore', 'ignore', 'inherit'] })
    const code = await new Promise((resolve) => child.on('close', resolve))
    const r = server.requests
    if (code !== 0 || r.length !== LONG_ROUNDS + 1) throw new Error(`long conversation failed (${code}, ${r.length} requests)`)
    const last = r.slice(-20)
    return { gap: median(last.map((req) => req.receivedAt - r[r.indexOf(req) - 1].answeredAt)), kb: median(last.map((req) => Buffer.byteLength(JSON.stringify(req.body)) / 1024)) }
  } finally {
    await server.close()
  }
}

/** Node's own cost of a shell round trip: spawn `sh -c 'echo x'` and read its output to the end. */
async function shellSpawn() {
  const samples = []
  for (let i = 0; i < 20; i++) {
    const start = performance.now()
    await new Promise((resolve, reject) => {
      const c = spawn('sh', ['-c', 'echo x'], { stdio: ['ignore', 'pipe', 'pipe'] })
      c.stdout.resume()
      c.on('error', reject)
      c.on('close', resolve)
    })
    samples.push(performance.now() - start)
  }
  return median(samples.slice(5))
}

/** Per pace: the median gaps of Bash, Read, the bare client and the model client alone; and Node's own shell spawn. */
export async function toolRounds() {
  const paces = {}
  for (const [name, pace] of Object.entries(PACES)) {
    const rows = {}
    for (const tool of ['Bash', 'Read']) {
      const all = []
      await gaps(tool, pace)
      for (let i = 0; i < RUNS; i++) all.push(...(await gaps(tool, pace)))
      rows[tool] = median(all)
    }
    const floor = []
    const sdk = []
    for (let i = 0; i < RUNS; i++) {
      floor.push(...(await clientGaps(bare, lastBodyBytes, pace)))
      sdk.push(...(await clientGaps(modelClient, lastBodyBytes, pace, MODEL_CLIENT_WARMUP)))
    }
    paces[name] = { bash: rows.Bash, read: rows.Read, floor: median(floor), sdk: median(sdk) }
  }
  const withHook = []
  await gaps('Read', PACES.streamed, hooked)
  for (let i = 0; i < RUNS; i++) withHook.push(...(await gaps('Read', PACES.streamed, hooked)))
  return { paces, shell: await shellSpawn(), long: await longConversation(), hookedRead: median(withHook) }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const { paces, shell, long, hookedRead } = await toolRounds()
    const { streamed, 'at once': once } = paces
    const fig = (r) => `Bash ${r.bash.toFixed(1)} ms, Read ${r.read.toFixed(1)} ms, the model client alone ${r.sdk.toFixed(1)} ms, a client doing nothing between rounds ${r.floor.toFixed(1)} ms`
    console.log(`tool rounds (median gap of ${RUNS}×${ROUNDS} sequential rounds, model time excluded): streamed answers: ${fig(streamed)}; answers at once: ${fig(once)}; Node spawning sh -c echo: ${shell.toFixed(1)} ms`)
    console.log(`a Read round with a PreToolUse command hook (\`true\`), streamed: ${hookedRead.toFixed(1)} ms`)
    console.log(`a long conversation (${LONG_ROUNDS} Read rounds, answers at once): the last 20 rounds' median gap ${long.gap.toFixed(1)} ms, their requests ${long.kb.toFixed(0)} KB`)
    const how = (r) => `median gap of ${RUNS}×${ROUNDS} sequential rounds through \`modloop -p\`, timed at the fake server, the model's answers streamed; a client doing nothing between rounds: ${r.floor.toFixed(1)} ms`
    row('gap per Bash round (echo)', streamed.bash, { max: 10, unit: 'ms', detail: `${how(streamed)}; answers at once: ${once.bash.toFixed(1)} ms; Node spawning sh -c echo: ${shell.toFixed(1)} ms` })
    row('gap per Read round (a 40-line file)', streamed.read, { max: 2, unit: 'ms', detail: `${how(streamed)}; modloop's model client alone (the SDK, nothing else between requests): ${streamed.sdk.toFixed(1)} ms; answers at once: ${once.read.toFixed(1)} ms (the model client alone: ${once.sdk.toFixed(1)} ms, a client doing nothing: ${once.floor.toFixed(1)} ms)` })
  } finally {
    rmSync(cwd, { recursive: true, force: true })
  }
}
