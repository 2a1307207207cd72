// Preloaded (`node -r`) into a measured Node process: at exit it appends its CPU time (user + system,
// its own, µs-precise, plus its reaped children's from /proc on Linux, 10 ms ticks) and its peak RSS
// to the file BENCH_USAGE_FILE names. Cheaper and finer than /usr/bin/time, and the same for every
// Node command measured, `node -e ''` included.
'use strict'
const { appendFileSync, readFileSync } = require('node:fs')

const out = process.env.BENCH_USAGE_FILE
if (out) {
  process.on('exit', () => {
    const u = process.resourceUsage()
    let children = 0
    try {
      const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')
      // cutime and cstime, in clock ticks (100 a second on Linux).
      children = (Number(fields[13]) + Number(fields[14])) * 10
    } catch {
      // not Linux: the children's time is not known
    }
    appendFileSync(out, `${JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, childrenMs: children, rssMiB: u.maxRSS / 1024 })}\n`)
  })
}
