#!/usr/bin/env node
'use strict'
const { join } = require('node:path')
const { requireCached, setLaunchFlags } = require('./code-cache.cjs')

const argv = process.argv.slice(2)
setLaunchFlags([
  // fetch (WebFetch) parses HTTP with a WebAssembly module whose optimising recompile, left
  // unfinished when a short run exits, adds ~25 MiB to peak memory; the baseline compiler parses
  // a stream just as well.
  '--liftoff-only',
  // A headless run starts without V8's optimising compilers: a one-turn run ends before their
  // code would pay, and their compiles took ~5 MiB of its peak memory for no time saved. The run
  // gets them back once the session is under way (cli/heap.ts, at the first answer).
  ...(argv.includes('-p') || argv.includes('--print') ? ['--max-opt=0'] : []),
])
const { main } = requireCached(join(__dirname, '..', 'dist', 'bin', 'main.cjs'))

// A reader that went away (`| head`, a parent that stopped reading) is no crash: what is left to
// print has nowhere to go. During a run the process guard also stops the run on it.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {})

main(argv).then((code) => {
  // Everything of ours has finished when main returns (sessions closed, children killed); an idle
  // keep-alive socket of the HTTP client would only hold the process open for nothing.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)))
})
