/**
 * What `/init` asks of the model, in our words for the instructions Claude Code's `/init` gives:
 * write CLAUDE.md (or improve it) with what a later session needs and cannot see at a glance.
 */
export const INIT_PROMPT = `Study this codebase and write a CLAUDE.md file at its root. Future coding-agent sessions in this repository will read it first, so it should hold what they need to be productive quickly.

Cover:
1. The commands used day to day: how to build, lint and test, and how to run a single test.
2. The architecture at a high level: how the main parts fit together, the things that take reading several files to understand.

Guidelines:
- If a CLAUDE.md exists already, propose improvements to it rather than starting over.
- Keep it short and free of repetition. Leave out generic advice any project would get (write tests, handle errors well, keep secrets out of commits).
- Do not list every file or component: what a directory listing shows needs no mention.
- Bring in the important parts of any README.md, and of editor-assistant rules found in .cursorrules, .cursor/rules/ or .github/copilot-instructions.md.
- Write only what the files you read support; do not invent sections such as tips, common tasks or support.
- Begin the file with these lines:

\`\`\`
# CLAUDE.md

This file guides coding agents working in this repository.
\`\`\``
