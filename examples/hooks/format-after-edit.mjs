// PostToolUse (matcher "Edit|Write"): tidies the file that was just written (trailing spaces, one final
// newline) and tells the model it did, as formatters published for Claude Code do.
import { readFileSync, writeFileSync } from 'node:fs'

const input = JSON.parse(readFileSync(0, 'utf8'))
const file = input.tool_input?.file_path
if (typeof file === 'string') {
  const text = readFileSync(file, 'utf8')
  const tidy = text.split('\n').map((l) => l.replace(/[ \t]+$/, '')).join('\n').replace(/\n*$/, '\n')
  if (tidy !== text) {
    writeFileSync(file, tidy)
    process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: `${file} was reformatted after the edit.` } }))
  }
}
