#!/usr/bin/env node
import { main } from '../dist/bin/main.js'

const code = await main(process.argv.slice(2))
// Everything of ours has finished when main returns (sessions closed, children killed); an idle
// keep-alive socket of the HTTP client would only hold the process open for nothing.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)))
