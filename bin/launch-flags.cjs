'use strict'

/** The V8 flags a run of the CLI starts with, given its arguments (bin/modloop.cjs; bench/lib/load-only.cjs). */
function launchFlags(argv) {
  return [
    // fetch (WebFetch) parses HTTP with a WebAssembly module whose optimising recompile, left
    // unfinished when a short run exits, adds ~25 MiB to peak memory; the baseline compiler parses
    // a stream just as well.
    '--liftoff-only',
    // A headless run starts without V8's optimising compilers: a one-turn run ends before their
    // code would pay, and their compiles took ~5 MiB of its peak memory for no time saved. The run
    // gets them back once the session is under way (cli/heap.ts, at the first answer).
    ...(argv.includes('-p') || argv.includes('--print') ? ['--max-opt=0'] : []),
  ]
}

module.exports = { launchFlags }
