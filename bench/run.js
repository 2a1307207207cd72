// Runs every benchmark script in its own process and prints their figures.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const scripts = ['dispatch.js', 'load-mods.js', 'cold-run.js', 'loop-rounds.js', 'read-concurrency.js', 'grep.js', 'hooks.js', 'sessions.js', 'compaction.js', 'prompt-cache.js', 'tasks.js', 'fleet.js']
for (const script of scripts) {
  const path = fileURLToPath(new URL(script, import.meta.url))
  if (!existsSync(path)) continue
  const r = spawnSync(process.execPath, [path], { stdio: 'inherit' })
  if (r.status !== 0) process.exitCode = 1
}
