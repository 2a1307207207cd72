import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

/**
 * The texts the runtime writes are ASCII, comments aside: what reaches the model (tool results,
 * reminders, tool descriptions) is part of every later request, and one character past ASCII (an
 * ellipsis in a cut note, a dash in a reminder) makes V8 build the whole request body as a two-byte
 * string, slower to encode: a long conversation's rounds cost ~7M instructions more each. Rather than
 * sort the texts the model sees from the rest, none has such a character; the terminal, which draws
 * for people, is left out.
 */
describe('runtime texts', () => {
  it('hold no character past ASCII outside comments (the terminal UI aside)', () => {
    const found: string[] = []
    for (const dir of ['core', 'runtime', 'mods', 'hooks-runner']) {
      for (const f of readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })) {
        const file = join(dir, f)
        if (!f.endsWith('.ts') || f.endsWith('.d.ts') || file.startsWith(join('mods', 'terminal-ui'))) continue
        readFileSync(join(root, file), 'utf8').split('\n').forEach((line, i) => {
          const code = line.trimStart()
          if (code.startsWith('*') || code.startsWith('//') || code.startsWith('/*')) return
          const text = line.replace(/\s\/\/\s.*$/, '')
          if (/[^\x00-\x7f]/.test(text)) found.push(`${file}:${i + 1}: ${text.trim().slice(0, 120)}`)
        })
      }
    }
    expect(found).toEqual([])
  })
})
