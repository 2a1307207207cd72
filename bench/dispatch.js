// One event through 20 handlers that all call next: the per-handler cost of the bus.
import { ModHost } from '../dist/core/mod/host.js'

const HANDLERS = 20
const host = new ModHost()
for (let i = 0; i < HANDLERS; i++) {
  await host.add({ name: `mod-${i}`, register: (on) => on('tool.call', (_$, e, next) => next(e)) })
}
host.bind()
const e = { tool: 'Bash', tool_use_id: 'toolu_1', command: 'ls' }
const core = () => ({ result: 'ok' })

async function round(n) {
  const start = performance.now()
  for (let i = 0; i < n; i++) await host.bus.emit('tool.call', e, core)
  return performance.now() - start
}

await round(20_000) // warm up the JIT
const N = 100_000
const ms = await round(N)
const perHandlerUs = (ms * 1000) / (N * HANDLERS)
console.log(`dispatch: ${perHandlerUs.toFixed(3)} µs per handler (${HANDLERS} handlers calling next, ${N} dispatches, ${((ms * 1000) / N).toFixed(2)} µs per dispatch)`)

// The same with provenance on, as every session runs: each handler's changes are compared and recorded.
const traced = new ModHost()
for (let i = 0; i < HANDLERS; i++) {
  await traced.add({ name: `mod-${i}`, register: (on) => on('tool.call', (_$, e, next) => next(e)) })
}
traced.bind()
traced.bus.onProvenance(() => {})
async function tracedRound(n) {
  const start = performance.now()
  for (let i = 0; i < n; i++) await traced.bus.emit('tool.call', e, core)
  return performance.now() - start
}
await tracedRound(20_000)
const tracedMs = await tracedRound(N)
console.log(`dispatch with provenance on: ${((tracedMs * 1000) / (N * HANDLERS)).toFixed(3)} µs per handler`)
