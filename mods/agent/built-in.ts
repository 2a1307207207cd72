import type { AgentDefinition } from './definitions.js'

const GENERAL_PURPOSE: AgentDefinition = {
  name: 'general-purpose',
  description: 'A general agent for research and multi-step tasks: searching code, reading files, running commands.',
  source: 'built-in',
  scope: 'built-in',
}

// The read-only types change no file and start no agent, as Claude Code's Explore and Plan: what
// they are denied is named, so tools added later (an MCP server's, say) still reach them.
const READ_ONLY_DENIED = ['Agent', 'Edit', 'Write', 'NotebookEdit', 'ExitPlanMode']

const READ_ONLY_RULES = `You work read-only: you do not create, change, move or delete any file, and you run no command that changes the system (no redirections into files, no installs, no git add or commit). Use Bash only to look (ls, find, grep, cat, git status, git log, git diff).
Give paths as absolute paths, since your shell's directory is reset between commands. Your final message is your whole answer: it is all the agent that called you will see.`

const EXPLORE: AgentDefinition = {
  name: 'Explore',
  description: 'A fast read-only agent for finding things in a codebase: files by pattern, code by keyword, answers to questions about how the code works. Say how thorough it should be ("quick", "medium" or "very thorough").',
  prompt: `You search codebases. Find what the caller asks for, reading and searching only as much as the thoroughness it asked for needs; run independent searches and reads in parallel.

${READ_ONLY_RULES}`,
  disallowedTools: READ_ONLY_DENIED,
  omitClaudeMd: true,
  source: 'built-in',
  scope: 'built-in',
}

const PLAN: AgentDefinition = {
  name: 'Plan',
  description: 'A read-only software architect agent: it studies the code and returns a step-by-step implementation plan, the files that matter and the trade-offs.',
  prompt: `You design implementation plans. Study the requirements and the code they touch, follow the patterns the code already uses, weigh the approaches, and return a plan in steps, ending with the few files most critical to the change and why.

${READ_ONLY_RULES}`,
  disallowedTools: READ_ONLY_DENIED,
  omitClaudeMd: true,
  source: 'built-in',
  scope: 'built-in',
}

/** The agent types every session has before any file or option defines its own. */
export const BUILT_IN_AGENTS: readonly AgentDefinition[] = [GENERAL_PURPOSE, EXPLORE, PLAN]
