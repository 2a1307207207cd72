import { describe, expect, it } from 'vitest'
import type { HookEventName } from '../../hooks-runner/events.js'
import { matchValue } from '../../hooks-runner/events.js'
import { ifRuleMatches } from '../../hooks-runner/if-rule.js'
import { fileChangedWatchList, matcherKind, matcherMatches } from '../../hooks-runner/matcher.js'
import { splitShellCommands } from '../../hooks-runner/shell-commands.js'

const table: [matcher: string | undefined, event: HookEventName, value: string | undefined, expected: boolean][] = [
  [undefined, 'PreToolUse', 'Bash', true],
  ['', 'PreToolUse', 'Bash', true],
  ['*', 'PreToolUse', 'Bash', true],
  ['Bash', 'PreToolUse', 'Bash', true],
  ['Bash', 'PreToolUse', 'BashOutput', false],
  ['bash', 'PreToolUse', 'Bash', false],
  ['Edit|Write', 'PreToolUse', 'Write', true],
  ['Edit|Write', 'PreToolUse', 'MultiEdit', false],
  ['Edit, Write', 'PreToolUse', 'Write', true],
  [' Edit | Write ', 'PreToolUse', 'Edit', true],
  ['Write|Edit|', 'PreToolUse', 'Edit', true],
  ['Notebook Edit', 'PreToolUse', 'NotebookEdit', false],
  ['Edit.*', 'PreToolUse', 'NotebookEdit', true],
  ['^Edit$', 'PreToolUse', 'NotebookEdit', false],
  ['^Edit$', 'PreToolUse', 'Edit', true],
  ['mcp__memory__.*', 'PreToolUse', 'mcp__memory__create_entities', true],
  ['mcp__memory', 'PreToolUse', 'mcp__memory__create_entities', false],
  ['mcp__memory__.*', 'PreToolUse', 'mcp__github__search', false],
  ['mcp__.*__write.*', 'PostToolUse', 'mcp__fs__write_file', true],
  ['mcp__plugin_my-plugin_db__query', 'PreToolUse', 'mcp__plugin_my-plugin_db__query', true],
  ['Task', 'PreToolUse', 'Agent', true],
  ['Bash', 'PreToolUse', undefined, false],
  ['[invalid', 'PreToolUse', 'Bash', false],
  ['code-reviewer', 'SubagentStart', 'senior-code-reviewer', false],
  ['code-reviewer', 'SubagentStart', 'code-reviewer', true],
  ['^my-plugin:reviewer$', 'SubagentStop', 'my-plugin:reviewer', true],
  ['startup', 'SessionStart', 'startup', true],
  ['startup|resume', 'SessionStart', 'clear', false],
  ['manual', 'PreCompact', 'auto', false],
  ['clear', 'SessionEnd', 'clear', true],
  ['permission_prompt|idle_prompt', 'Notification', 'idle_prompt', true],
  ['Bash', 'Stop', undefined, true],
  ['no-such-thing', 'UserPromptSubmit', undefined, true],
  ['Makefile|Dockerfile', 'FileChanged', 'Makefile', true],
  ['Makefile|Dockerfile', 'FileChanged', 'Makefile.bak', false],
  ['rate_limit|overloaded', 'StopFailure', 'overloaded', true],
  ['rate-limit', 'StopFailure', 'rate-limit-x', true],
  ['rate_limit,overloaded', 'StopFailure', 'overloaded', false],
  ['rate_limit,overloaded', 'PreToolUse', 'overloaded', true],
]

describe('matcher (spec §1.4)', () => {
  it.each(table)('%j on %s against %j → %s', (matcher, event, value, expected) => {
    expect(matcherMatches(matcher, value, event)).toBe(expected)
  })

  it('tells exact lists, regexes and invalid patterns apart', () => {
    expect(matcherKind('Edit|Write', 'PreToolUse')).toBe('exact')
    expect(matcherKind('Edit.*', 'PreToolUse')).toBe('regex')
    expect(matcherKind('a-b', 'FileChanged')).toBe('regex')
    expect(matcherKind('(', 'PreToolUse')).toBe('invalid')
  })

  it('derives each event\'s match value from its own field', () => {
    expect(matchValue('PreToolUse', { tool_name: 'Bash' })).toBe('Bash')
    expect(matchValue('SessionStart', { source: 'resume' })).toBe('resume')
    expect(matchValue('PreCompact', { trigger: 'auto' })).toBe('auto')
    expect(matchValue('SessionEnd', { reason: 'logout' })).toBe('logout')
    expect(matchValue('Notification', { notification_type: 'idle_prompt' })).toBe('idle_prompt')
    expect(matchValue('StopFailure', { error: 'rate_limit' })).toBe('rate_limit')
    expect(matchValue('FileChanged', { file_path: '/p/sub/.envrc' })).toBe('.envrc')
    expect(matchValue('PreModelSwitch', { to_model: 'claude-opus-4[1m]' })).toBe('claude-opus-4')
    expect(matchValue('Stop', { hook_event_name: 'Stop' })).toBeUndefined()
  })

  it('reads FileChanged matchers as literal file names for the watch list', () => {
    expect(fileChangedWatchList(['.envrc|.env', '*', undefined, '.env'])).toEqual(['.envrc', '.env', '*'])
  })
})

const bash = (command: string) => ({ toolName: 'Bash', toolInput: { command }, cwd: '/p', projectDir: '/p', home: '/h' })
const file = (tool: string, file_path: string, cwd = '/p') => ({ toolName: tool, toolInput: { file_path }, cwd, projectDir: '/p', home: '/h' })

describe('if rules (spec §1.5)', () => {
  it.each([
    ['Bash(git *)', 'git status', true],
    ['Bash(git *)', 'git', true],
    ['Bash(git *)', 'gitk --all', false],
    ['Bash(git *)', 'npm test && git push', true],
    ['Bash(git *)', 'FOO=1 BAR=2 git push', true],
    ['Bash(git *)', 'echo $(git status)', true],
    ['Bash(git *)', 'echo `git log`', true],
    ['Bash(git *)', 'ls -la | wc -l', false],
    ['Bash(git push *)', 'git push origin main', true],
    ['Bash(git push *)', 'git pull', false],
    ['Bash(git push *)', 'git $SUBCOMMAND', true],
    ['Bash(git push *)', 'echo $(whoami)', true],
    ['Bash(npm run test:*)', 'npm run test', true],
    ['Bash(npm run test:*)', 'npm run test --watch', true],
    ['Bash(npm run test:*)', 'npm run testing', false],
    ['Bash(rm -rf *)', 'cd /tmp; rm -rf build', true],
    ['Bash', 'anything at all', true],
  ])('%s on `%s` → %s', (rule, command, expected) => {
    expect(ifRuleMatches(rule, bash(command)).run).toBe(expected)
  })

  it.each([
    ['Edit(*.ts)', 'Edit', '/p/src/a.ts', '/p', true],
    ['Edit(*.ts)', 'Edit', '/p/src/a.js', '/p', false],
    ['Edit(src/**)', 'Edit', '/p/src/x/y.ts', '/p', true],
    ['Edit(src/**)', 'Edit', '/p/lib/src/a.ts', '/p', false],
    ['Edit(**/src/**)', 'Edit', '/p/lib/src/a.ts', '/p', true],
    ['Edit(//etc/*)', 'Edit', '/etc/hosts', '/p', true],
    ['Edit(/docs/*.md)', 'Edit', '/p/docs/a.md', '/p/sub', true],
    ['Write(~/notes/*)', 'Write', '/h/notes/x.txt', '/p', true],
    ['Edit(*.ts)', 'Write', '/p/a.ts', '/p', false],
    ['Read(.env)', 'Read', '/p/deep/.env', '/p', true],
    // Outside the current directory (after a cd, or an added directory) unanchored patterns still apply.
    ['Edit(*.ts)', 'Edit', '/p/a.ts', '/p/sub', true],
    ['Edit(**/*.ts)', 'Edit', '/other/x/a.ts', '/p', true],
    ['Edit(*.ts)', 'Edit', '/other/a.js', '/p', false],
    ['Edit(src/**)', 'Edit', '/p/src/a.ts', '/p/sub', false],
    ['Edit(./*.ts)', 'Edit', '/p/a.ts', '/p/sub', false],
    ['Read(a.txt)', 'Read', '/p/a.txt', '/p/sub', false],
    ['Edit(/docs/*.md)', 'Edit', '/q/docs/a.md', '/p', false],
  ])('%s on %s %s (cwd %s) → %s', (rule, tool, path, cwd, expected) => {
    expect(ifRuleMatches(rule, file(tool, path, cwd)).run).toBe(expected)
  })

  it('matches web domains, subagent types (Task = Agent), skills and MCP servers', () => {
    const web = (url: string) => ({ toolName: 'WebFetch', toolInput: { url }, cwd: '/p', projectDir: '/p' })
    expect(ifRuleMatches('WebFetch(domain:example.com)', web('https://example.com/x')).run).toBe(true)
    expect(ifRuleMatches('WebFetch(domain:example.com)', web('https://evil.com/example.com')).run).toBe(false)
    const agent = (toolName: string) => ({ toolName, toolInput: { subagent_type: 'Explore' }, cwd: '/p', projectDir: '/p' })
    expect(ifRuleMatches('Agent(Explore)', agent('Task')).run).toBe(true)
    expect(ifRuleMatches('Task(Explore)', agent('Agent')).run).toBe(true)
    expect(ifRuleMatches('Task(Plan)', agent('Agent')).run).toBe(false)
    expect(ifRuleMatches('Skill(pdf*)', { toolName: 'Skill', toolInput: { skill: 'pdf-tools' }, cwd: '/p', projectDir: '/p' }).run).toBe(true)
    const mcp = (toolName: string) => ({ toolName, toolInput: {}, cwd: '/p', projectDir: '/p' })
    expect(ifRuleMatches('mcp__db', mcp('mcp__db__query')).run).toBe(true)
    expect(ifRuleMatches('mcp__db__*', mcp('mcp__db__query')).run).toBe(true)
    expect(ifRuleMatches('mcp__db__query', mcp('mcp__db__query')).run).toBe(true)
    expect(ifRuleMatches('mcp__db', mcp('mcp__dbx__query')).run).toBe(false)
  })

  it('fails open on forms it does not understand, and says so', () => {
    const verdict = ifRuleMatches('WebSearch(cats)', { toolName: 'WebSearch', toolInput: { query: 'dogs' }, cwd: '/p', projectDir: '/p' })
    expect(verdict).toMatchObject({ run: true, unsupported: expect.stringContaining('WebSearch') })
  })
})

describe('shell command splitting', () => {
  it('finds every simple command, without assignments and redirections', () => {
    expect(splitShellCommands('A=1 git push 2>&1 > out.txt && echo $(rm -rf x) ; ls | wc -l')).toEqual({
      commands: ['git push', 'echo', 'rm -rf x', 'ls', 'wc -l'], dynamic: true, parsed: true,
    })
    expect(splitShellCommands('for f in *.ts; do prettier -w "$f"; done').commands).toContain('prettier -w $f')
  })
})
