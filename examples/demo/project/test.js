import { mean, sum } from './math.js'

const cases = [
  ['sum([1, 2, 3])', () => sum([1, 2, 3]), 6],
  ['sum([])', () => sum([]), 0],
  ['mean([2, 4, 6])', () => mean([2, 4, 6]), 4],
]
let failed = 0
for (const [name, run, expected] of cases) {
  const actual = run()
  if (actual === expected) console.log(`ok   ${name} = ${expected}`)
  else {
    failed++
    console.log(`FAIL ${name}: expected ${expected}, got ${actual}`)
  }
}
console.log(failed === 0 ? `all ${cases.length} tests passed` : `${failed} of ${cases.length} tests failed`)
process.exit(failed === 0 ? 0 : 1)
