import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { evaluate } from '../../mods/permissions/evaluate.js'
import type { Behavior, Mode } from '../../mods/permissions/types.js'
import { fill, policyOf, sandbox, type PolicySpec, type Sandbox } from './helpers.js'

let box: Sandbox
beforeAll(async () => { box = await sandbox() })
afterAll(() => box.remove())

const MODES: Mode[] = ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions']
type Row = [kind: string, tool: string, input: Record<string, unknown>, expected: [Behavior, Behavior, Behavior, Behavior, Behavior]]

// One row per class of call; columns follow MODES.
const matrix: Row[] = [
  ['read inside', 'Read', { file_path: '{project}/src/a.ts' }, ['allow', 'allow', 'allow', 'allow', 'allow']],
  ['read outside', 'Read', { file_path: '{outside}/secret.txt' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['read through a link out', 'Read', { file_path: '{project}/out-link/secret.txt' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['search inside', 'Grep', { pattern: 'x' }, ['allow', 'allow', 'allow', 'allow', 'allow']],
  ['edit inside', 'Edit', { file_path: '{project}/src/a.ts', old_string: 'a', new_string: 'b' }, ['ask', 'allow', 'ask', 'deny', 'allow']],
  ['write outside', 'Write', { file_path: '{outside}/x.txt', content: '' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['write a protected path', 'Write', { file_path: '{project}/.git/config', content: '' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['write under .modloop', 'Write', { file_path: '{project}/.modloop/config.json', content: '' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['write a shell rc file', 'Write', { file_path: '{project}/.bashrc', content: '' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['read-only command', 'Bash', { command: 'ls -la src && git status' }, ['allow', 'allow', 'allow', 'allow', 'allow']],
  ['read-only text tools', 'Bash', { command: "sed -n '1,2p' src/a.ts | sort -r -k 1 | cut -c1 | tr a b && test -f src/a.ts && [ -d src ] && readlink -f src/a.ts && realpath src && jq -r . src/a.ts" }, ['allow', 'allow', 'allow', 'allow', 'allow']],
  ['sed with a script other than printing lines', 'Bash', { command: 'sed -n /x/p src/a.ts' }, ['ask', 'allow', 'ask', 'deny', 'allow']],
  ['sort writing a file', 'Bash', { command: 'sort -o sorted.txt src/a.ts' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['text tools reading outside', 'Bash', { command: "cut -c1 {outside}/secret.txt; sed -n 1p {outside}/secret.txt; jq . {outside}/secret.txt" }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['read-only command sent to the background', 'Bash', { command: 'ls &' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['read-only command outside', 'Bash', { command: 'cat {outside}/secret.txt' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['read-only command, output to a file', 'Bash', { command: 'ls > listing.txt && echo x >> src/log.txt' }, ['ask', 'allow', 'ask', 'deny', 'allow']],
  ['read-only command, output to a file outside', 'Bash', { command: 'ls > {outside}/listing.txt' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['read-only command outside, output to a file inside', 'Bash', { command: 'cat {outside}/secret.txt > copy.txt' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['read-only command under xargs (its paths come from its input)', 'Bash', { command: 'echo {outside}/secret.txt | xargs cat' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['file-system command under xargs', 'Bash', { command: 'echo {outside}/x | xargs touch' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['date reading a file', 'Bash', { command: 'date -uf {outside}/secret.txt' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['file compiling a magic file', 'Bash', { command: 'file -C -m src/a.ts' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['tree writing its listing', 'Bash', { command: 'tree -o listing.txt && tree -R' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['date, file and tree that only read', 'Bash', { command: 'date -Iseconds && file -b src/a.ts && tree -L 2 -I node_modules src' }, ['allow', 'allow', 'allow', 'allow', 'allow']],
  ['git diff of a file outside the repository', 'Bash', { command: 'git diff --no-index {outside}/secret.txt /dev/null' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['git diff of two files inside', 'Bash', { command: 'git diff --no-index src/a.ts /dev/null' }, ['allow', 'allow', 'allow', 'allow', 'allow']],
  ['other command', 'Bash', { command: 'npm test' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['file-system command inside', 'Bash', { command: 'mkdir -p build && touch build/x' }, ['ask', 'allow', 'ask', 'deny', 'allow']],
  ['mv inside', 'Bash', { command: 'mv src/a.ts src/deep/b.ts' }, ['ask', 'allow', 'ask', 'deny', 'allow']],
  ['cp inside', 'Bash', { command: 'cp -r src pkg/src/copy' }, ['ask', 'allow', 'ask', 'deny', 'allow']],
  ['rm inside', 'Bash', { command: 'rm -f src/deep/old.ts' }, ['ask', 'allow', 'ask', 'deny', 'allow']],
  ['rmdir inside', 'Bash', { command: 'rmdir src/deep' }, ['ask', 'allow', 'ask', 'deny', 'allow']],
  ['file-system command with a cd on the line', 'Bash', { command: 'cd src && touch x' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['output to a file, then a cd', 'Bash', { command: 'echo x > src/log.txt; cd src' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['a cd and reads only', 'Bash', { command: 'cd src && ls deep' }, ['allow', 'allow', 'allow', 'allow', 'allow']],
  ['file-system command outside', 'Bash', { command: 'cp src/a.ts {outside}/' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['sed in place inside', 'Bash', { command: "sed -i 's/a/b/' src/a.ts" }, ['ask', 'allow', 'ask', 'deny', 'allow']],
  ['critical removal', 'Bash', { command: 'rm -rf .' }, ['ask', 'ask', 'ask', 'deny', 'ask']],
  ['critical removal by path', 'Bash', { command: 'env /bin/rm -rf .' }, ['ask', 'ask', 'ask', 'deny', 'ask']],
  ['critical removal by glob', 'Bash', { command: 'rm -rf ~/*' }, ['ask', 'ask', 'ask', 'deny', 'ask']],
  ['web fetch', 'WebFetch', { url: 'https://example.com/', prompt: 'p' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['todo list', 'TodoWrite', { todos: [] }, ['allow', 'allow', 'allow', 'allow', 'allow']],
  ['task created', 'TaskCreate', { subject: 's', description: 'd' }, ['allow', 'allow', 'allow', 'allow', 'allow']],
  ['task updated', 'TaskUpdate', { taskId: '1', status: 'completed' }, ['allow', 'allow', 'allow', 'allow', 'allow']],
  ['task read', 'TaskGet', { taskId: '1' }, ['allow', 'allow', 'allow', 'allow', 'allow']],
  ['task list read', 'TaskList', {}, ['allow', 'allow', 'allow', 'allow', 'allow']],
  ['subagent', 'Agent', { description: 'd', prompt: 'p' }, ['allow', 'allow', 'allow', 'allow', 'allow']],
  ['mcp tool', 'mcp__srv__do', {}, ['ask', 'ask', 'ask', 'deny', 'allow']],
  ['mcp resources listed', 'ListMcpResourcesTool', {}, ['allow', 'allow', 'allow', 'allow', 'allow']],
  ['mcp resource read', 'ReadMcpResourceTool', { server: 's', uri: 'docs://x' }, ['allow', 'allow', 'allow', 'allow', 'allow']],
  ['a mod\'s own tool', 'Echo', { text: 'hi' }, ['ask', 'ask', 'ask', 'deny', 'allow']],
]

describe('each mode against each class of call', () => {
  it.each(matrix.flatMap(([kind, tool, input, expected]) => MODES.map((mode, i) => [`${kind} · ${mode} → ${expected[i]}`, tool, input, mode, expected[i]] as const)))(
    '%s', async (_name, tool, input, mode, expected) => {
      const verdict = await evaluate(await policyOf(box, { mode }), tool, fill(input, box))
      expect(verdict.decision).toBe(expected)
      if (verdict.decision === 'deny') expect(verdict.reason && verdict.rule).toBeTruthy()
    },
  )
})

type OrderCase = [name: string, spec: PolicySpec, tool: string, input: Record<string, unknown>, decision: Behavior, rule: string | undefined]

const order: OrderCase[] = [
  ['deny beats allow', { allow: ['Bash(npm *)'], deny: ['Bash(npm publish *)'] }, 'Bash', { command: 'npm publish --tag x' }, 'deny', 'Bash(npm publish *)'],
  ['deny beats ask', { ask: ['Bash'], deny: ['Bash(rm *)'] }, 'Bash', { command: 'rm x' }, 'deny', 'Bash(rm *)'],
  ['deny holds in bypass', { mode: 'bypassPermissions', deny: ['Read(./src/**)'] }, 'Read', { file_path: '{project}/src/a.ts' }, 'deny', 'Read(./src/**)'],
  ['a deny rule inside a shell -c script asks, even in bypass', { mode: 'bypassPermissions', deny: ['Bash(rm *)'] }, 'Bash', { command: "bash -c 'ls; rm x'" }, 'ask', 'Bash(rm *)'],
  ['and under a bare allow, in a shell -c inside another', { allow: ['Bash'], deny: ['Bash(rm *)'] }, 'Bash', { command: `sh -ec "/bin/bash -xc 'rm x'"` }, 'ask', 'Bash(rm *)'],
  ['a shell -c script no deny rule matches is left to the other rules', { allow: ['Bash'], deny: ['Bash(rm *)'] }, 'Bash', { command: "bash -o pipefail -c 'ls | wc -l' rm" }, 'allow', 'Bash'],
  ['ask beats allow', { allow: ['Bash(git *)'], ask: ['Bash(git push *)'] }, 'Bash', { command: 'git push' }, 'ask', 'Bash(git push *)'],
  ['ask holds in bypass', { mode: 'bypassPermissions', ask: ['WebFetch'] }, 'WebFetch', { url: 'https://a.example/', prompt: 'p' }, 'ask', 'WebFetch'],
  ['ask beats the working-directory allow', { ask: ['Read(./src/**)'] }, 'Read', { file_path: '{project}/src/a.ts' }, 'ask', 'Read(./src/**)'],
  ['in dontAsk an ask rule denies, naming it', { mode: 'dontAsk', ask: ['Bash(git push *)'] }, 'Bash', { command: 'git push' }, 'deny', 'Bash(git push *)'],
  ['plan asks about edits an allow rule allows, naming no rule', { mode: 'plan', allow: ['Edit(./src/**)'] }, 'Edit', { file_path: '{project}/src/a.ts', old_string: 'a', new_string: 'b' }, 'ask', undefined],
  ['plan asks about a command that writes', { mode: 'plan', allow: ['Bash(touch *)'] }, 'Bash', { command: 'touch x' }, 'ask', undefined],
  ['plan lets a read-only command run', { mode: 'plan' }, 'Bash', { command: 'ls src' }, 'allow', '[read-only-command]'],
  ['sleep only waits: it runs unasked', {}, 'Bash', { command: 'sleep 0.1 && date' }, 'allow', '[read-only-command]'],
  ['git stash list and show only read', {}, 'Bash', { command: 'git stash list && git stash show -p' }, 'allow', '[read-only-command]'],
  ['a bare git stash changes the tree: it asks', {}, 'Bash', { command: 'git stash' }, 'ask', undefined],
  ['ExitPlanMode asks in plan mode', { mode: 'plan', allow: ['ExitPlanMode'] }, 'ExitPlanMode', { plan: 'p' }, 'ask', undefined],
  ['ExitPlanMode outside plan mode needs no approval (the call answers there is no plan mode)', {}, 'ExitPlanMode', { plan: 'p' }, 'allow', '[no-approval-needed]'],
  ['a deny rule holds for ExitPlanMode', { mode: 'plan', deny: ['ExitPlanMode'] }, 'ExitPlanMode', { plan: 'p' }, 'deny', 'ExitPlanMode'],
  ['a cd on the line leaves a write an allow rule approves to the prompt', { allow: ['Bash(touch *)'] }, 'Bash', { command: 'cd src && touch x' }, 'ask', undefined],
  ['a command sent to the background asks though each part is allowed', { mode: 'acceptEdits', allow: ['Bash(npm test)'] }, 'Bash', { command: 'npm test & ls' }, 'ask', undefined],
  ['so does one in a substitution', {}, 'Bash', { command: 'echo $(ls &)' }, 'ask', undefined],
  ['a rule for every Bash command approves it', { allow: ['Bash'] }, 'Bash', { command: 'npm test &' }, 'allow', 'Bash'],
  ['&> and 2>&1 are no background', {}, 'Bash', { command: 'ls &> /dev/null; ls 2>&1' }, 'allow', '[read-only-command]'],
  ['an allow rule allows', { allow: ['Bash(npm test)'] }, 'Bash', { command: 'npm test' }, 'allow', 'Bash(npm test)'],
  ['allowed parts may mix rules and read-only commands', { allow: ['Bash(npm test)'] }, 'Bash', { command: 'ls && npm test' }, 'allow', 'Bash(npm test), [read-only-command]'],
  ['an allow rule does not approve a protected path', { allow: ['Edit(./**)'] }, 'Write', { file_path: '{project}/.git/hooks/pre-commit', content: '' }, 'ask', '[protected-path]'],
  ['an allow rule does not approve a critical removal', { allow: ['Bash(rm *)'] }, 'Bash', { command: 'rm -rf ..' }, 'ask', '[critical-path]'],
  ['acceptEdits leaves .modloop to the prompt', { mode: 'acceptEdits' }, 'Edit', { file_path: '{project}/.modloop/settings.json', old_string: 'a', new_string: 'b' }, 'ask', '[protected-path]'],
  ['acceptEdits leaves .claude to the prompt', { mode: 'acceptEdits' }, 'Edit', { file_path: '{project}/.claude/settings.json', old_string: 'a', new_string: 'b' }, 'ask', '[protected-path]'],
  ['additional directories are working directories', { dirs: ['{outside}'] }, 'Read', { file_path: '{outside}/secret.txt' }, 'allow', '[working-directory]'],
  ['an ask the mode alone causes names no rule', {}, 'Bash', { command: 'npm test' }, 'ask', undefined],
  ['in dontAsk that ask is a denial by the mode', { mode: 'dontAsk' }, 'Bash', { command: 'npm test' }, 'deny', '[mode:dontAsk]'],
  ['a cd out of the project makes later paths outside', {}, 'Bash', { command: 'cd {outside} && cat secret.txt' }, 'ask', undefined],
  ['a variable hides where a path points', {}, 'Bash', { command: 'cat $HOME/.ssh/id_rsa' }, 'ask', undefined],
  ['a variable that makes git run a program leaves git diff to the prompt', {}, 'Bash', { command: 'GIT_EXTERNAL_DIFF=./x.sh git diff' }, 'ask', undefined],
  ['a Read deny rule stops a command reading the file', { mode: 'bypassPermissions', deny: ['Read(*.ts)'] }, 'Bash', { command: 'head -1 src/a.ts' }, 'deny', 'Read(*.ts)'],
  ['a Read deny rule stops listing the folder, after a cd too', { deny: ['Read(./src/**)'] }, 'Bash', { command: 'cd src && ls deep' }, 'deny', 'Read(./src/**)'],
  ['a Read deny rule stops a read from a redirection', { deny: ['Read(./src/**)'] }, 'Bash', { command: 'wc -l < src/a.ts' }, 'deny', 'Read(./src/**)'],
  ['an Edit deny rule stops a command changing the file', { mode: 'acceptEdits', deny: ['Edit(./src/**)'] }, 'Bash', { command: 'touch src/b.ts' }, 'deny', 'Edit(./src/**)'],
  ['a path deny rule leaves a command that only names the file', { deny: ['Read(*.ts)'] }, 'Bash', { command: 'echo src/a.ts' }, 'allow', '[read-only-command]'],
]

describe('the full order: deny → ask → mode → allow → ask', () => {
  it.each(order)('%s', async (_name, spec, tool, input, decision, rule) => {
    const verdict = await evaluate(await policyOf(box, fill(spec, box)), tool, fill(input, box))
    expect({ decision: verdict.decision, rule: verdict.rule }).toEqual({ decision, rule })
    if (decision !== 'allow') expect(verdict.reason).toBeTruthy()
  })

  it('a denial tells the model why, and which rule', async () => {
    const verdict = await evaluate(await policyOf(box, { deny: ['Bash(rm *)'] }), 'Bash', { command: 'rm -f x' })
    expect(verdict.reason).toBe('Permission to use Bash has been denied by the rule Bash(rm *) (the command line).')
    const plan = await evaluate(await policyOf(box, { mode: 'plan' }), 'Write', { file_path: `${box.project}/x`, content: '' })
    expect(plan.reason).toMatch(/^plan mode: Write can change files or systems, so it runs only if the user approves it$/)
  })
})

describe('an allow rule approves a command, not where its output is written', () => {
  const cases: [string, PolicySpec, string, Behavior][] = [
    ['redirected outside', { allow: ['Bash(printf:*)'] }, 'printf a > {outside}/x.txt', 'ask'],
    ['appended to a parent folder', { allow: ['Bash(printf *)'] }, 'printf a >> ../x.txt', 'ask'],
    ['stderr to a file inside, default mode', { allow: ['Bash(npm test *)'] }, 'npm test 2> log.txt', 'ask'],
    ['inside, acceptEdits', { allow: ['Bash(npm test *)'], mode: 'acceptEdits' }, 'npm test > log.txt', 'allow'],
    ['outside, acceptEdits', { allow: ['Bash(npm test *)'], mode: 'acceptEdits' }, 'npm test > {outside}/log.txt', 'ask'],
    ['a rule that spells the redirection out', { allow: ['Bash(npm test > log.txt)'] }, 'npm test > log.txt', 'allow'],
    ['output discarded', { allow: ['Bash(npm test *)'] }, 'npm test > /dev/null 2>&1', 'allow'],
    ['stderr onto stdout, under the exact command', { allow: ['Bash(npm test)'] }, 'npm test 2>&1', 'allow'],
    ['stderr to a file', { allow: ['Bash(npm test *)'] }, 'npm test 2>err.log', 'ask'],
    ['every Bash call allowed', { allow: ['Bash'] }, 'printf a > {outside}/x.txt', 'allow'],
  ]
  it.each(cases)('%s', async (_name, spec, command, decision) => {
    const verdict = await evaluate(await policyOf(box, spec), 'Bash', { command: fill(command, box) })
    expect(verdict.decision).toBe(decision)
  })

  it('the reason names the rule and the file', async () => {
    const verdict = await evaluate(await policyOf(box, { allow: ['Bash(printf:*)'] }), 'Bash', { command: 'printf a > ../x.txt' })
    expect(verdict.reason).toBe('the rule Bash(printf:*) allows the command `printf a > ../x.txt` but not its writing ../x.txt')
  })
})
