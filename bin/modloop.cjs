#!/usr/bin/env node
'use strict'
const { join } = require('node:path')
const { isHeadless, launchFlagsFor, requireCached, setLaunchFlags } = require('./code-cache.cjs')

const argv = process.argv.slice(2)
setLaunchFlags(launchFlagsFor(argv), isHeadless(argv))
const { main } = requireCached(join(__dirname, '..', 'dist', 'bin', 'main.cjs'))

// A reader that went away (`| head`, a parent that stopped reading) is no crash: what is left to
// print has nowhere to go. During a run the process guard also stops the run on it.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {})

main(argv).then((code) => {
  // Everything of ours has finished when main returns (sessions closed, children killed); an idle
  // keep-alive socket of the HTTP client would only hold the process open for nothing.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)))
})
