import { describe, expect, it } from 'vitest'
import { readOnlyLine } from '../../mods/permissions/read-only-line.js'

// Which lines Claude Code's CLI ran side by side with other calls of the same response, and which alone.
const SIDE_BY_SIDE = [
  'ls', 'cat f', 'git status', 'git log --oneline', 'grep hello f', 'find . -name f', 'sleep 1', 'date', 'echo hi',
  'ls && cat f', 'ls | wc -l', 'ls; cat f', 'ls 2>/dev/null', 'ls >/dev/null 2>&1', 'pwd', 'cat /etc/hostname',
  'sed -n 1p f', '[ -f f ] && echo yes', 'git show HEAD', 'diff f g.txt', 'git stash list',
  'if [ -f f ]; then cat f; fi', 'LANG=C ls', 'timeout 5 ls', "echo 'a > b'", 'ls # comment',
]
const ALONE = [
  'ls > out', 'echo x >> out', 'find . -name f -exec cat {} \\;', 'find . -delete', 'frobnicate', './script.sh',
  'rm -f x', 'touch x', 'git add f', 'git branch new', 'echo $(cat f)', 'echo "$(date)"', 'echo `cat f`',
  'FOO=1 ls', 'sleep 1 &', 'git stash', 'cat f | tee out', 'sed -i s/a/b/ f', 'node -e 1', 'awk 1 f',
  '(ls)', '{ ls; }', 'ls 2>err.txt', 'sort -o out f', 'for x in a b; do echo $x; done',
  // Claude Code runs these beside the others; here a cd moves the shell for the calls after it.
  'cd sub', 'cd sub && ls',
]

describe('a Bash line that only reads', () => {
  it.each(SIDE_BY_SIDE)('%s runs beside other read-only calls', (line) => expect(readOnlyLine(line)).toBe(true))
  it.each(ALONE)('%s runs alone', (line) => expect(readOnlyLine(line)).toBe(false))
})
