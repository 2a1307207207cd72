import { cp, mkdtemp, readFile, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../core/version.js'
import type { CommandRun } from './command.js'
import { renderPretty } from './pretty.js'

/**
 * The offline demo: copies a small project with a failing test to a temp dir and runs the
 * "fix the failing test" turn through the real loop, tools and mods — only the model is
 * scripted (examples/demo/script.json). Needs no network and no API key.
 */
export const demo: CommandRun = async ({ values, io }) => {
  const dir = join(PACKAGE_ROOT, 'examples', 'demo')
  const cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-demo-')))
  const color = !io.env.NO_COLOR && (io.stdout as { isTTY?: boolean }).isTTY === true
  const prompt = 'The tests in this project fail. Find the bug and fix it.'
  // Said as soon as the directory is known: the copy and the session follow while it is read.
  io.stdout.write(`modloop demo — a scripted model fixes a failing test in ${cwd}\n\n> ${prompt}\n\n`)
  try {
    await cp(join(dir, 'project'), cwd, { recursive: true })
    const script = JSON.parse((await readFile(join(dir, 'script.json'), 'utf8')).replaceAll('{{cwd}}', cwd))
    const { query } = await import('../entry.js')
    let failed = true
    for await (const m of query({ prompt, options: { cwd, env: io.env, config: join(dir, 'modloop.config.json'), script, log: (line) => io.stderr.write(`modloop: ${line}\n`) } })) {
      io.stdout.write(renderPretty(m, { color }))
      if (m.type === 'result') failed = m.is_error
    }
    return failed ? 1 : 0
  } finally {
    if (values.keep !== true) await rm(cwd, { recursive: true, force: true })
    else io.stdout.write(`\nthe project is kept in ${cwd}\n`)
  }
}
