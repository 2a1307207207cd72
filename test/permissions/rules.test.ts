import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseRule } from '../../mods/permissions/rule-parse.js'
import { callFacts, matchesCall } from '../../mods/permissions/rule-match.js'
import type { Behavior, RuleSource } from '../../mods/permissions/types.js'
import { fill, sandbox, type Sandbox } from './helpers.js'

let box: Sandbox
beforeAll(async () => { box = await sandbox() })
afterAll(() => box.remove())

type Case = [rule: string, as: Behavior, tool: string, input: Record<string, unknown>, match: boolean, note?: string]

const bash = (command: string, extra: Record<string, unknown> = {}) => ({ command, ...extra })
const file = (path: string) => ({ file_path: path })

// Paths use {project} (the cwd), {home} and {outside}; the sandbox has out-link → {outside} and in-link.ts → src/a.ts.
const cases: Case[] = [
  ['Bash(npm test)', 'allow', 'Bash', bash('npm test'), true],
  ['Bash(npm test)', 'allow', 'Bash', bash('npm  test'), true, 'spacing does not matter'],
  ['Bash(npm test)', 'allow', 'Bash', bash('npm test --watch'), false, 'no * means the exact command'],
  ['Bash(npm run test:*)', 'allow', 'Bash', bash('npm run test'), true, 'legacy :* is a trailing " *"'],
  ['Bash(npm run test:*)', 'allow', 'Bash', bash('npm run test -- --coverage'), true],
  ['Bash(npm run test:*)', 'allow', 'Bash', bash('npm run test:unit'), false, ':* keeps the word boundary'],
  ['Bash(git * main)', 'allow', 'Bash', bash('git push origin main'), true],
  ['Bash(git * main)', 'allow', 'Bash', bash('git checkout main'), true],
  ['Bash(git * main)', 'allow', 'Bash', bash('git push origin dev'), false],
  ['Bash(ls *)', 'allow', 'Bash', bash('ls'), true],
  ['Bash(ls *)', 'allow', 'Bash', bash('ls -la src'), true],
  ['Bash(ls *)', 'allow', 'Bash', bash('lsof -i'), false, 'a space before * is a word boundary'],
  ['Bash(ls*)', 'allow', 'Bash', bash('lsof -i'), true],
  ['Bash', 'allow', 'Bash', bash('anything at all; rm -rf x'), true],
  ['Bash(*)', 'allow', 'Bash', bash('anything'), true, 'Tool(*) is Tool'],
  ['Bash(npm test)', 'allow', 'Bash', bash('npm test && rm -rf build'), false, 'every part must be allowed'],
  ['Bash(npm test)', 'allow', 'Bash', bash('npm test; npm test'), true],
  ['Bash(npm test)', 'allow', 'Bash', bash('npm test | npm test'), true],
  ['Bash(npm test)', 'allow', 'Bash', bash('npm test 2>&1'), true, 'a descriptor copied onto another writes no file'],
  ['Bash(npm test)', 'allow', 'Bash', bash('npm test > /dev/null 2>&1'), true, 'nor does output thrown away'],
  ['Bash(npm test)', 'allow', 'Bash', bash('npm test 2>/dev/null | npm test'), true],
  ['Bash(npm test)', 'allow', 'Bash', bash('npm test 2'), false, 'a word 2 is an argument'],
  ['Bash(npm test)', 'allow', 'Bash', bash('npm test 2>err.log'), false, 'writing a file is not the command alone'],
  ['Bash(npm test)', 'deny', 'Bash', bash('npm test 2>&1'), true, 'a deny holds with the redirection'],
  ['Bash(CI=1 npm test)', 'allow', 'Bash', bash('echo "2>&1" && CI=1 npm test'), false, 'a quoted 2>&1 is a word'],
  ['Bash(npm test)', 'allow', 'Bash', bash('CI=1 npm test'), true, 'a harmless assignment is stripped for allow'],
  ['Bash(npm test)', 'allow', 'Bash', bash('PATH=/tmp/evil npm test'), false, 'PATH is not stripped for allow'],
  ['Bash(git diff:*)', 'allow', 'Bash', bash('GIT_EXTERNAL_DIFF=./x.sh git diff'), false, 'only known harmless variables are stripped for allow'],
  ['Bash(npm test)', 'allow', 'Bash', bash('FOO=1 npm test'), false, 'an unknown variable is not stripped for allow'],
  ['Bash(npm test)', 'allow', 'Bash', bash('NODE_ENV=test LANG=C.UTF-8 TZ=Europe/Paris npm test'), true],
  ['Bash(npm test)', 'allow', 'Bash', bash('LANG=../x npm test'), false, 'a locale that names a file is not harmless'],
  ['Bash(npm test)', 'allow', 'Bash', bash('TZ=/etc/x npm test'), false, 'nor an absolute path'],
  ['Bash(npm test)', 'allow', 'Bash', bash('timeout 60 nice -n 5 npm test'), true, 'wrappers are stripped'],
  ['Bash(npm test)', 'allow', 'Bash', bash('npm test "unclosed'), false, 'an unreadable line gets no allow'],
  ['Bash(echo *)', 'allow', 'Bash', bash('echo "a && b"'), true, 'a quoted operator is no separator'],
  ['Bash(rm *)', 'deny', 'Bash', bash('ls && rm -rf x'), true],
  ['Bash(rm *)', 'deny', 'Bash', bash('cat a || rm b'), true],
  ['Bash(rm *)', 'deny', 'Bash', bash('ls; rm b'), true],
  ['Bash(rm *)', 'deny', 'Bash', bash('ls & rm b'), true],
  ['Bash(rm *)', 'deny', 'Bash', bash('ls |& rm b'), true],
  ['Bash(rm *)', 'deny', 'Bash', bash('echo a\nrm b'), true, 'a newline separates commands'],
  ['Bash(rm *)', 'deny', 'Bash', bash('(cd x && rm y)'), true, 'subshell'],
  ['Bash(rm *)', 'deny', 'Bash', bash('echo $(rm -rf x)'), true, 'command substitution'],
  ['Bash(rm *)', 'deny', 'Bash', bash('echo "`rm x`"'), true, 'backticks in double quotes still run'],
  ['Bash(rm *)', 'deny', 'Bash', bash('diff <(rm a) b'), true, 'process substitution'],
  ['Bash(rm *)', 'deny', 'Bash', bash('find . | xargs rm'), true, 'bare xargs is stripped'],
  ['Bash(rm *)', 'deny', 'Bash', bash('SAFE=1 timeout 5 rm x'), true, 'any assignment and wrappers are stripped for deny'],
  ['Bash(rm *)', 'deny', 'Bash', bash('if true; then rm x; fi'), true],
  ['Bash(rm *)', 'deny', 'Bash', bash('/bin/rm x'), true, 'a command called by its path is called by its name'],
  ['Bash(rm *)', 'deny', 'Bash', bash('nohup ./rm x'), true],
  ['Bash(/bin/rm *)', 'deny', 'Bash', bash('/bin/rm x'), true, 'a rule naming the path still matches it'],
  ['Bash(rm *)', 'deny', 'Bash', bash('env -i -u HOME FOO=1 rm x'), true, 'env runs the command'],
  ['Bash(rm *)', 'deny', 'Bash', bash('/usr/bin/env rm x'), true, 'a wrapper called by its path'],
  ['Bash(rm *)', 'deny', 'Bash', bash('sudo -u root -E rm x'), true, 'sudo runs the command'],
  ['Bash(rm *)', 'deny', 'Bash', bash('exec rm x'), true],
  ['Bash(rm *)', 'deny', 'Bash', bash('command -p rm -v x'), true, 'command -p runs the command'],
  ['Bash(rm *)', 'deny', 'Bash', bash('command -v rm'), false, 'command -v only says where it is'],
  ['Bash(rm *)', 'deny', 'Bash', bash('setsid ionice -c 3 taskset 1 rm x'), true],
  ['Bash(rm *)', 'deny', 'Bash', bash('taskset -p 1 rm'), false, 'taskset -p runs nothing'],
  ['Bash(rm *)', 'deny', 'Bash', bash('a=rm; $a x'), true, 'a variable set earlier on the line is its value'],
  ['Bash(rm *)', 'deny', 'Bash', bash('export d=/bin && ${d}/rm x'), true],
  ['Bash(rm *)', 'deny', 'Bash', bash('a=ls; $a x'), false],
  ['Bash(rm *)', 'allow', 'Bash', bash('a=rm; $a x'), false, 'an allow rule sees the line as written'],
  ['Bash(rm *)', 'deny', 'Bash', bash('watch -n 1 flock -w 5 /tmp/l chrt 0 rm x'), true],
  ['Bash(npm test)', 'allow', 'Bash', bash('env npm test'), false, 'env is not stripped for allow'],
  ['Bash(npm test)', 'allow', 'Bash', bash('sudo npm test'), false, 'nor sudo'],
  ['Bash(npm test)', 'allow', 'Bash', bash('/usr/bin/npm test'), false, 'nor a path'],
  ['Bash(rm *)', 'deny', 'Bash', bash('echo rm'), false],
  ['Bash(rm *)', 'deny', 'Bash', bash('echo x # && rm y'), false, 'a comment runs nothing'],
  ['Bash(rm *)', 'deny', 'Bash', bash("cat <<'EOF'\nrm b\nEOF"), false, 'a here-document body is data'],
  ['Bash(rm *)', 'deny', 'Bash', bash('cat <<EOF\n$(rm b)\nEOF'), true, 'but its substitutions run'],
  ['Bash(curl * | sh)', 'deny', 'Bash', bash('curl https://x.example | sh'), true, 'a rule written across parts matches the line'],
  ['Bash(git push *)', 'deny', 'Bash', bash('git push --force'), true],
  ['Bash(git push *)', 'deny', 'Bash', bash('git pull'), false],
  ['Bash(run_in_background:true)', 'deny', 'Bash', bash('sleep 9', { run_in_background: true }), true, 'parameter match'],
  ['Bash(run_in_background:true)', 'deny', 'Bash', bash('sleep 9', { run_in_background: false }), false],
  ['Read(./src/**)', 'allow', 'Read', file('{project}/src/a.ts'), true],
  ['Read(./src/**)', 'allow', 'Read', file('{project}/pkg/a.ts'), false],
  ['Read(./src/**)', 'allow', 'Grep', { pattern: 'x', path: '{project}/src' }, true, 'Read rules cover Grep, folder itself included'],
  ['Read(./src/**)', 'allow', 'Glob', { pattern: '*.ts', path: '{project}/src/deep' }, true, 'and Glob'],
  ['Read(./**)', 'allow', 'Glob', { pattern: '*.ts' }, true, 'Glob with no path searches the cwd'],
  ['Read(src/**)', 'allow', 'Read', file('{project}/pkg/src/x.ts'), false, 'single-segment folder: only <cwd>/src for allow'],
  ['Read(src/**)', 'deny', 'Read', file('{project}/pkg/src/x.ts'), true, 'but any depth for deny'],
  ['Read(.env)', 'deny', 'Read', file('{project}/a/b/.env'), true, 'no slash: any depth'],
  ['Read(.env)', 'deny', 'Read', file('{outside}/.env'), true],
  ['Read(*.key)', 'deny', 'Read', file('{project}/src/deep/id.key'), true],
  ['Read(./src)', 'deny', 'Read', file('{project}/src/deep/x.ts'), true, 'a matched folder covers its contents'],
  ['Read(//{outside}/**)', 'deny', 'Read', file('{outside}/secret.txt'), true, '// is absolute'],
  ['Read(//{project}/*.md)', 'allow', 'Read', file('{project}/README.md'), true],
  ['Read(//{project}/*.md)', 'allow', 'Read', file('{project}/docs/README.md'), false, '* is one segment'],
  ['Read(~/notes/**)', 'allow', 'Read', file('{home}/notes/todo.md'), true, '~ is the home option'],
  ['Read(~/notes/**)', 'allow', 'Read', file('{project}/notes/todo.md'), false],
  ['Edit(./src/**)', 'allow', 'Write', file('{project}/src/new.ts'), true, 'Edit covers Write'],
  ['Edit(./src/**)', 'allow', 'Read', file('{project}/src/a.ts'), true, 'an Edit allow implies read'],
  ['Read(./src/**)', 'allow', 'Edit', file('{project}/src/a.ts'), false, 'a Read allow does not imply edit'],
  ['Read(./src/**)', 'deny', 'Edit', file('{project}/src/a.ts'), true, 'a Read deny also blocks edits'],
  ['Read(./**)', 'allow', 'Read', file('{project}/out-link/secret.txt'), false, 'symlink out: the target must match too'],
  ['Read(//{outside}/**)', 'deny', 'Read', file('{project}/out-link/secret.txt'), true, 'symlink: a deny on the target holds'],
  ['Read(//{outside}/**)', 'allow', 'Read', file('{project}/out-link/secret.txt'), false, 'symlink: the link must match too'],
  ['Read(./src/**)', 'allow', 'Read', file('{project}/in-link.ts'), false, 'a link into src is not under src'],
  ['Read(./src/**)', 'deny', 'Read', file('{project}/in-link.ts'), true, 'but a deny on its target holds'],
  ['WebFetch(domain:example.com)', 'allow', 'WebFetch', { url: 'https://example.com/x', prompt: 'p' }, true],
  ['WebFetch(domain:example.com)', 'allow', 'WebFetch', { url: 'https://api.example.com/x', prompt: 'p' }, false],
  ['WebFetch(domain:*.example.com)', 'allow', 'WebFetch', { url: 'https://a.b.example.com/', prompt: 'p' }, true, 'subdomains at any depth'],
  ['WebFetch(domain:*.example.com)', 'allow', 'WebFetch', { url: 'https://badexample.com/', prompt: 'p' }, false],
  ['WebFetch(domain:Example.COM)', 'allow', 'WebFetch', { url: 'https://EXAMPLE.com/', prompt: 'p' }, true, 'case-insensitive'],
  ['WebFetch', 'allow', 'WebFetch', { url: 'https://any.where/', prompt: 'p' }, true],
  ['mcp__srv', 'allow', 'mcp__srv__read', {}, true, 'a server rule covers its tools'],
  ['mcp__srv', 'allow', 'mcp__srv2__read', {}, false],
  ['mcp__srv__*', 'allow', 'mcp__srv__write', {}, true],
  ['mcp__srv__read', 'allow', 'mcp__srv__write', {}, false],
  ['mcp__*', 'deny', 'mcp__a__b', {}, true, 'name globs in deny'],
  ['mcp__*', 'deny', 'Bash', bash('ls'), false],
  ['*', 'deny', 'Read', file('{project}/src/a.ts'), true],
  ['Agent(Explore)', 'allow', 'Agent', { subagent_type: 'Explore' }, true],
  ['Agent(Explore)', 'allow', 'Agent', {}, false],
  ['Agent(general-purpose)', 'allow', 'Agent', {}, true, 'no type is general-purpose'],
  ['Task(Explore)', 'deny', 'Agent', { subagent_type: 'Explore' }, true, 'Task is the old name of Agent'],
  ['Agent(model:opus)', 'deny', 'Agent', { model: 'opus' }, true],
  ['Agent(model:claude-*)', 'ask', 'Agent', { model: 'claude-opus-4' }, true],
  ['Agent(model:opus)', 'deny', 'Agent', { model: 'haiku' }, false],
  ['Skill(deploy *)', 'allow', 'Skill', { skill: 'deploy', args: 'prod' }, true],
  ['Skill(deploy *)', 'allow', 'Skill', { skill: 'deploy' }, true],
  ['Skill(deploy *)', 'allow', 'Skill', { skill: 'deployer' }, true, 'the name is a prefix, as in Claude Code'],
  ['Skill(deploy *)', 'allow', 'Skill', { skill: 'dep' }, false],
  ['Skill(deploy)', 'deny', 'Skill', { skill: 'deploy', args: 'prod' }, true, 'arguments do not slip past a rule on the name'],
  ['Skill(deploy)', 'allow', 'Skill', { skill: '/deploy', args: 'prod' }, true],
  ['Skill(/deploy)', 'deny', 'Skill', { skill: 'deploy' }, true, 'a leading / is the same name'],
  ['Skill(deploy)', 'deny', 'Skill', { skill: 'deployer' }, false],
  ['Skill(tools:deploy)', 'allow', 'Skill', { skill: 'tools:deploy' }, true, "a plugin's skill, not a parameter match"],
  ['Skill(tools:deploy)', 'deny', 'Skill', { skill: 'tools:ship' }, false],
  ['Skill(tools:*)', 'deny', 'Skill', { skill: 'tools:ship', args: 'x' }, true, "each of a plugin's skills"],
]

describe('rule matching', () => {
  it.each(cases.map((c) => [`${c[1]} ${c[0]} · ${c[2]} ${JSON.stringify(c[3]).slice(0, 60)}${c[5] ? ` (${c[5]})` : ''}`, c] as const))('%s', async (_name, c) => {
    const [text, as, tool, input, expected] = fill(c, box)
    const source: RuleSource = { name: 'cliArg', label: 'test', root: box.project, projectLevel: false }
    const rule = await parseRule(text, as, source, { cwd: box.project, home: box.home })
    if (typeof rule === 'string') throw new Error(`${text}: ${rule}`)
    expect(matchesCall(rule, await callFacts(tool, input, box.project))).toBe(expected)
  })

  it('/path is relative to the folder holding the settings source (the project, or home for user settings)', async () => {
    const project: RuleSource = { name: 'projectSettings', label: 'p', root: box.project, projectLevel: true }
    const user: RuleSource = { name: 'userSettings', label: 'u', root: box.home, projectLevel: false }
    const facts = async (path: string) => callFacts('Edit', { file_path: path }, box.project)
    const fromProject = await parseRule('Edit(/src/**)', 'allow', project, { cwd: box.project, home: box.home })
    const fromUser = await parseRule('Edit(/notes/**)', 'allow', user, { cwd: box.project, home: box.home })
    if (typeof fromProject === 'string' || typeof fromUser === 'string') throw new Error('parse')
    expect(matchesCall(fromProject, await facts(`${box.project}/src/a.ts`))).toBe(true)
    expect(matchesCall(fromUser, await facts(`${box.home}/notes/a.md`))).toBe(true)
    expect(matchesCall(fromUser, await facts(`${box.project}/notes/a.md`))).toBe(false)
  })
})

const bad: [rule: string, as: Behavior, message: RegExp][] = [
  ['Bash(npm test', 'deny', /not of the form/],
  ['Bash()', 'deny', /empty specifier/],
  ['Bash(run_in_background:true)', 'allow', /only deny and ask/],
  ['Read(file_path:/etc/passwd)', 'deny', /write Read\(\/etc\/passwd\)/],
  ['mcp__*', 'allow', /only use after mcp__<server>__/],
  ['*', 'allow', /tool-name glob/],
  ['Write(./src/**)', 'allow', /never consulted: Edit/],
  ['Glob(./src/**)', 'deny', /never consulted: Read/],
  ['WebFetch(example.com)', 'allow', /domain:example.com/],
  ['Read(~bob/x)', 'deny', /~user/],
  ['WebSearch(cats)', 'deny', /takes no specifier/],
  ['mcp__srv__*(x)', 'deny', /takes no specifier/],
]

describe('rules that cannot be used', () => {
  it.each(bad)('%s (%s) → %s', async (text, as, message) => {
    const source: RuleSource = { name: 'cliArg', label: 'test', root: box.project, projectLevel: false }
    const rule = await parseRule(text, as, source, { cwd: box.project, home: box.home })
    expect(rule).toMatch(message)
  })
})
