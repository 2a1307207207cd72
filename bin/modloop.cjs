#!/usr/bin/env node
'use strict'
const { setFlagsFromString } = require('node:v8')
const { join } = require('node:path')
const { requireCached } = require('./code-cache.cjs')

// fetch parses HTTP with a WebAssembly module whose optimising recompile, left unfinished when a
// short run exits, adds ~25 MiB to peak memory; the baseline compiler parses a stream just as well.
setFlagsFromString('--liftoff-only')
const { main } = requireCached(join(__dirname, '..', 'dist', 'bin', 'main.cjs'))

// A reader that went away (`| head`, a parent that stopped reading) is no crash: what is left to
// print has nowhere to go. During a run the process guard also stops the run on it.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {})

main(process.argv.slice(2)).then((code) => {
  // Everything of ours has finished when main returns (sessions closed, children killed); an idle
  // keep-alive socket of the HTTP client would only hold the process open for nothing.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)))
})
