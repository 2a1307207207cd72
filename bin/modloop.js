#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8'
import { fileURLToPath } from 'node:url'
import { requireCached } from './code-cache.js'

// fetch parses HTTP with a WebAssembly module whose optimising recompile, left unfinished when a
// short run exits, adds ~25 MiB to peak memory; the baseline compiler parses a stream just as well.
setFlagsFromString('--liftoff-only')
const { main } = requireCached(fileURLToPath(new URL('../dist/bin/main.cjs', import.meta.url)))

const code = await main(process.argv.slice(2))
// Everything of ours has finished when main returns (sessions closed, children killed); an idle
// keep-alive socket of the HTTP client would only hold the process open for nothing.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)))
