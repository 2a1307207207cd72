import { isAbsolute, resolve } from 'node:path'
import { isInside } from '../_shared/allowed-paths.js'
import { fsCommandPaths, isFsCommand, readFiles, readOnlyPaths, redirectedReadPaths, removalTargets, writtenFiles } from './bash-commands.js'
import { partText, splitCommand, type Part, type Split } from './bash-split.js'
import { byName, shellScript, stripForRules, takesInputWords } from './bash-strip.js'
import { pathFacts, type PathFacts } from './path-rules.js'
import { blockedPathOf, suggestionsFor } from './suggest.js'
import { allowsPart, callFacts, coversTool, matchesCall, WATCH_TOOL, type CallFacts } from './rule-match.js'
import { APPROVAL_REASON, EXIT_PLAN_TOOL } from './plan-mode.js'
import { ASK_USER_TOOL, USER_INPUT_RULE } from '../ask-user/name.js'
import { EDIT_TOOLS, isCriticalTarget, isProtected, NO_APPROVAL, PLAN_TOOLS, READ_TOOLS } from './tool-classes.js'
import type { Policy, Roots, Rule, Verdict } from './types.js'

/** Why a call that changes something goes to the approver in plan mode. */
export const planAsk = (tool: string) => `plan mode: ${tool} can change files or systems, so it runs only if the user approves it`

/** The verdict on one call; `shellDir`: where the shell's last `cd` left it, for a Bash call. */
export async function evaluate(policy: Policy, tool: string, input: unknown, shellDir?: string): Promise<Verdict> {
  return decide(policy, await callFacts(tool, input, policy.cwd, shellDir))
}

/**
 * The order (spec loop-and-sdk §3.3; a PreToolUse hook's verdict comes before all of it, from the
 * hook bridge): deny rules → ask rules → AskUserQuestion (asks in every mode) → ExitPlanMode
 * (asks in plan mode; outside it the call itself answers that there is no plan mode to leave) →
 * the built-in gates (critical removals ask in every mode, protected paths in every mode but
 * bypass) → the mode (plan asks about what writes,
 * with no rule named, as only the mode asks: a PreToolUse allow settles it as Claude Code's does;
 * bypass allows; acceptEdits and auto allow edits inside the working directories) → allow rules → what needs no
 * approval → ask. In dontAsk every ask becomes a deny.
 */
export async function decide(policy: Policy, facts: CallFacts): Promise<Verdict> {
  const { mode } = policy
  const ask = (v: Verdict): Verdict => (mode === 'dontAsk' ? dontAsk(facts.tool, v) : v)
  const by = (rule: Rule) => ({ rule: rule.text, source: rule.source.label })
  for (const rule of policy.rules) {
    if (rule.behavior === 'deny' && matchesCall(rule, facts)) {
      return { decision: 'deny', ...by(rule), reason: `Permission to use ${facts.tool} has been denied by the rule ${rule.text} (${rule.source.label}).` }
    }
  }
  // Confined, a file tool stays in the working directories whatever a rule, the mode or a granted directory would allow.
  if (policy.confined && (READ_TOOLS.has(facts.tool) || EDIT_TOOLS.has(facts.tool)) && facts.path && !inside(policy.roots, facts.path)) {
    return { decision: 'deny', rule: '[confined]', reason: confinedReason(policy, facts.path) }
  }
  const pathDeny = facts.bash ? await bashPathDeny(policy, facts) : undefined
  if (pathDeny) return pathDeny
  const hidden = facts.bash && deniedInScript(policy, facts.bash)
  if (hidden) return ask({ decision: 'ask', ...by(hidden), reason: `the rule ${hidden.text} (${hidden.source.label}) denies a command inside this shell -c script, and approving runs the whole script, that command included` })
  for (const rule of policy.rules) {
    if (rule.behavior === 'ask' && matchesCall(rule, facts)) return ask({ decision: 'ask', ...by(rule), reason: `the rule ${rule.text} (${rule.source.label}) asks first` })
  }
  // The answers are the approver's to give, in every mode (a rule or bypass allowing it would leave them out); dontAsk refuses it.
  if (facts.tool === ASK_USER_TOOL) return ask({ decision: 'ask', rule: USER_INPUT_RULE })
  if (facts.tool === EXIT_PLAN_TOOL) return mode === 'plan' ? { decision: 'ask', reason: APPROVAL_REASON } : { decision: 'allow', rule: '[no-approval-needed]' }
  // A directory a mod keeps for the model (the auto memory): its file tools work there unasked in
  // every mode, ahead of the protected-path gate and plan mode, as Claude Code lets its memory be written.
  if ((READ_TOOLS.has(facts.tool) || EDIT_TOOLS.has(facts.tool)) && facts.path && policy.granted && inside(policy.granted, facts.path)) {
    return { decision: 'allow', rule: '[granted-directory]' }
  }
  const gate = await gateOf(policy, facts)
  if (gate) return ask(gate)
  if (mode === 'plan' && !planSafe(facts)) return { decision: 'ask', reason: planAsk(facts.tool) }
  if (mode === 'bypassPermissions') return { decision: 'allow', rule: '[mode:bypassPermissions]' }
  if (approvesEdits(mode) && EDIT_TOOLS.has(facts.tool) && facts.path && inside(policy.roots, facts.path)) return { decision: 'allow', rule: `[mode:${mode}]` }
  let unapproved: string[] = []
  let why: string | undefined
  if (facts.bash) {
    const approval = await bashApproval(policy, facts)
    if ('decision' in approval) return approval
    unapproved = approval.unapproved
    why = approval.why
  } else {
    const rule = policy.rules.find((r) => r.behavior === 'allow' && matchesCall(r, facts))
    if (rule) return { decision: 'allow', ...by(rule) }
  }
  if (NO_APPROVAL.has(facts.tool)) return { decision: 'allow', rule: '[no-approval-needed]' }
  // A skill that only adds instructions runs unasked, as in Claude Code; one whose frontmatter widens what may run asks.
  if (facts.tool === 'Skill' && typeof facts.input.skill === 'string' && policy.skillAsks?.(facts.input.skill) === false) return { decision: 'allow', rule: '[no-approval-needed]' }
  const inWorkingDirs = facts.path !== undefined && inside(policy.roots, facts.path)
  if (READ_TOOLS.has(facts.tool) && inWorkingDirs) return { decision: 'allow', rule: '[working-directory]' }
  // The start texts of background work tell the model to Read its output file, which lies outside the project, as in Claude Code.
  if (READ_TOOLS.has(facts.tool) && facts.path && policy.taskOutput && inside(policy.taskOutput, facts.path)) return { decision: 'allow', rule: '[task-output]' }
  const blockedPath = blockedPathOf(facts, !inWorkingDirs)
  return ask({ decision: 'ask', reason: why ?? askReason(policy, facts, unapproved[0]), suggestions: suggestionsFor(facts, unapproved, !inWorkingDirs), ...(blockedPath ? { blockedPath } : {}) })
}

function dontAsk(tool: string, v: Verdict): Verdict {
  return {
    decision: 'deny', rule: v.rule ?? '[mode:dontAsk]', ...(v.source ? { source: v.source } : {}),
    reason: `Permission to use ${tool} was not granted: ${v.reason ?? 'it needs approval'}, and in dontAsk mode whatever would need approval is denied. Allow it up front with a rule, or use another permission mode.`,
  }
}

/**
 * A Read or Edit deny rule also stops a command that reads or changes a file it covers
 * (`cat .env` under `Read(*.env)`, `touch` under `Edit(...)`), as in Claude Code: the paths are
 * those the known commands and the redirections name.
 */
async function bashPathDeny(policy: Policy, facts: CallFacts): Promise<Verdict | undefined> {
  // Most sessions have no such rule: their Bash calls need no path of theirs looked up.
  const rules = policy.rules.filter((r) => r.behavior === 'deny' && r.content?.kind === 'path')
  if (rules.length === 0) return undefined
  let dir = facts.shellDir ?? policy.cwd
  for (const part of facts.bash!.parts) {
    const argv = byName(stripForRules(part.argv, 'deny'))
    // What it reads, whether or not it also writes somewhere.
    const reads = [...(readOnlyPaths(argv, { ...part, redirects: [] }) ?? []), ...readFiles(part)]
    const changes = fsCommandPaths(argv, part) ?? writtenFiles(part)
    for (const [tool, words] of [['Read', reads], ['Edit', changes]] as const) {
      for (const word of words) {
        const at = bashPath(word, dir, policy.home)
        if (at === undefined) continue
        const path = await pathFacts(at, dir)
        const rule = rules.find((r) => matchesCall(r, { tool, input: {}, path }))
        if (rule) return { decision: 'deny', rule: rule.text, source: rule.source.label, reason: `Permission to use Bash has been denied by the rule ${rule.text} (${rule.source.label}): the command \`${partText(argv, part.redirects)}\` touches ${word}.` }
      }
    }
    if (argv[0] === 'cd' && reads[0] !== undefined) dir = bashPath(reads[0], dir, policy.home) ?? dir
  }
  return undefined
}

/**
 * A deny rule matching a command inside a shell's `-c` script (`bash -c 'rm x'`): that script is
 * one word to the rules, so it is asked about rather than run, in every mode, as in Claude Code.
 */
function deniedInScript(policy: Policy, split: Split): Rule | undefined {
  for (const part of split.parts) {
    const script = shellScript(byName(stripForRules(part.argv, 'deny')))
    if (script === undefined) continue
    const bash = splitCommand(script)
    const rule = policy.rules.find((r) => r.behavior === 'deny' && matchesCall(r, { tool: 'Bash', input: { command: script }, bash })) ?? deniedInScript(policy, bash)
    if (rule) return rule
  }
  return undefined
}

/** Critical removals ask in every mode; writes to protected paths ask in every mode but bypass. */
async function gateOf(policy: Policy, facts: CallFacts): Promise<Verdict | undefined> {
  const extra = policy.roots.lexical.slice(1)
  const writes: string[] = []
  const from = facts.shellDir ?? policy.cwd
  for (const part of facts.bash?.parts ?? []) {
    const argv = byName(stripForRules(part.argv, 'deny'))
    const critical = removalTargets(argv)?.find((t) => isCriticalTarget(t, policy.cwd, policy.home, extra, from))
    if (critical !== undefined) return { decision: 'ask', rule: '[critical-path]', reason: `removing ${critical} could take the project, the home folder or the system with it` }
    writes.push(...(fsCommandPaths(argv, part) ?? writtenFiles(part)))
  }
  if (policy.mode === 'bypassPermissions') return undefined
  if (EDIT_TOOLS.has(facts.tool) && facts.path && (isProtected(facts.path.lexical) || isProtected(facts.path.real))) {
    return { decision: 'ask', rule: '[protected-path]', reason: `${facts.path.lexical} is a protected path (version control, editor, shell or agent settings)` }
  }
  for (const written of writes) {
    const at = bashPath(written, from, policy.home)
    if (at === undefined || isProtected(at)) return { decision: 'ask', rule: '[protected-path]', reason: `the command writes ${written}, which may be a protected path` }
  }
  return undefined
}

function planSafe(facts: CallFacts): boolean {
  if (PLAN_TOOLS.has(facts.tool)) return true
  if (facts.tool === WATCH_TOOL) return false
  const split = facts.bash
  if (!split?.balanced || split.background) return false
  return split.parts.every((p) => {
    const argv = stripForRules(p.argv, 'allow')
    return (argv.length === 0 && p.redirects.length === 0) || readOnlyPaths(argv, p) !== null
  })
}

/**
 * The modes that approve edits and file-system commands inside the working directories:
 * acceptEdits, and auto, which approves them without asking its classifier, as Claude Code's does.
 */
const approvesEdits = (mode: string) => mode === 'acceptEdits' || mode === 'auto'

/**
 * Every part of a command line must be approved: by an allow rule, as a read-only command on
 * paths inside the working directories, or (acceptEdits) as a file-system command, or a read-only one
 * writing its output, inside them.
 * `cd` moves where the later parts' relative paths point; with a `cd` anywhere on the line, no
 * write is approved.
 */
async function bashApproval(policy: Policy, facts: CallFacts): Promise<Verdict | { unapproved: string[]; why?: string }> {
  const bare = policy.rules.find((r) => r.behavior === 'allow' && r.content === undefined && (coversTool(r, 'Bash') || coversTool(r, facts.tool)))
  if (bare) return { decision: 'allow', rule: bare.text, source: bare.source.label }
  const split = facts.bash!
  if (!split.balanced) return { unapproved: [split.whole] }
  // As in Claude Code, only a rule for every Bash command approves one sent to the background.
  if (split.background) return { unapproved: [split.whole], why: 'the command uses the `&` background operator, so it runs on past the checks made before it starts' }
  const used: Rule[] = []
  const unapproved: string[] = []
  let why: string | undefined
  const builtins = new Set<string>()
  let dir = facts.shellDir ?? policy.cwd
  for (const part of split.parts) {
    const argv = stripForRules(part.argv, 'allow')
    if (argv.length === 0 && part.redirects.length === 0) continue
    const text = partText(argv, part.redirects)
    const rule = policy.rules.find((r) => allowsPart(r, text))
    if (rule) {
      if (await redirectsApproved(policy, rule, part, dir)) {
        if (!used.includes(rule)) used.push(rule)
        continue
      }
      why ??= `the rule ${rule.text} allows the command \`${text}\` but not its writing ${writtenFiles(part).join(', ')}`
    }
    // A watch runs on and reports whatever it prints: only a rule approves it, never being read-only.
    const known = !takesInputWords(part.argv) && facts.tool !== WATCH_TOOL
    const read = known ? readOnlyPaths(argv, part) : null
    if (read && (await allInside(policy, read, dir))) {
      builtins.add('[read-only-command]')
      if (argv[0] === 'cd') dir = bashPath(read[0]!, dir, policy.home) ?? dir
      continue
    }
    const changed = approvesEdits(policy.mode) && known ? (fsCommandPaths(argv, part) ?? redirectedReadPaths(argv, part)) : null
    if (changed && (await allInside(policy, changed, dir))) {
      builtins.add(`[mode:${policy.mode}]`)
      continue
    }
    unapproved.push(text)
  }
  if (unapproved.length > 0) return { unapproved, ...(why && unapproved.length === 1 ? { why } : {}) }
  const moved = cdWrites(split.parts)
  if (moved) return moved
  const rule = [...used.map((r) => r.text), ...builtins].join(', ') || '[read-only-command]'
  return { decision: 'allow', rule, ...(used[0] ? { source: used[0].source.label } : {}) }
}

/**
 * Where a write lands after a `cd` is not known for sure (CDPATH, `cd -`), so a line that changes
 * directory and writes files is asked about however its parts were approved, as in Claude Code.
 */
function cdWrites(parts: readonly Part[]): { unapproved: string[]; why: string } | undefined {
  const words = parts.map((p) => stripForRules(p.argv, 'allow'))
  if (!words.some((argv) => argv[0] === 'cd')) return undefined
  const writes = parts.flatMap((p, i) => (isFsCommand(words[i]![0] ?? '') || writtenFiles(p).length > 0 ? [partText(words[i]!, p.redirects)] : []))
  return writes.length > 0 ? { unapproved: writes, why: `the command changes directory with cd and writes files (\`${writes[0]}\`), so where it writes needs approval` } : undefined
}

/**
 * An allow rule approves a command, not where its output is written: `Bash(printf *)` must not let
 * `printf x > ~/anywhere` through. A part's output redirections to files are approved when the rule
 * spells a redirection out itself (`Bash(npm test > log.txt)`, as an "always allow" saves it), or in
 * acceptEdits when they land inside the working directories; otherwise the part is asked about.
 */
async function redirectsApproved(policy: Policy, rule: Rule, part: Part, dir: string): Promise<boolean> {
  const written = writtenFiles(part)
  if (written.length === 0 || rule.content === undefined) return true
  if (rule.content.kind === 'command' && rule.content.pattern.includes('>')) return true
  return approvesEdits(policy.mode) && (await allInside(policy, written, dir))
}

/** A shell word as a path: `~` expanded; undefined when a variable or substitution hides where it points. */
function bashPath(word: string, dir: string, home: string): string | undefined {
  if (/[$`]/.test(word)) return undefined
  if (word === '~' || word.startsWith('~/')) return home + word.slice(1)
  if (word.startsWith('~')) return undefined
  return isAbsolute(word) ? resolve(word) : resolve(dir, word)
}

async function allInside(policy: Policy, words: readonly string[], dir: string): Promise<boolean> {
  for (const word of words) {
    const path = bashPath(word, dir, policy.home)
    if (path === undefined || !inside(policy.roots, await pathFacts(path, dir))) return false
  }
  return true
}

/** Inside the working directories: the path as given and its real target both. */
export function inside(roots: Roots, facts: PathFacts): boolean {
  return roots.lexical.some((r) => isInside(r, facts.lexical)) && roots.real.some((r) => isInside(r, facts.real))
}

/** Claude Code's words for a file tool call restricted mode keeps in: the path, through its symlink when that is what leads out. */
function confinedReason(policy: Policy, path: PathFacts): string {
  const roots = policy.roots.lexical.join(', ')
  const where = path.real !== path.lexical && policy.roots.lexical.some((r) => isInside(r, path.lexical))
    ? `${path.lexical} resolves through a symlink to ${path.real}, which is outside ${roots}`
    : `${path.lexical} is outside ${roots}`
  return `${where}; --restricted confines the file tools to the working directory.`
}

function askReason(policy: Policy, facts: CallFacts, unapproved: string | undefined): string {
  if (facts.bash) return facts.bash.balanced ? `the command \`${unapproved}\` is not allowed by any rule` : 'the command could not be split into its parts with confidence'
  if (READ_TOOLS.has(facts.tool) && facts.path) return `${facts.path.lexical} is outside the working directories (${policy.roots.lexical.join(', ')})`
  if (EDIT_TOOLS.has(facts.tool) && facts.path) return `${facts.tool} of ${facts.path.lexical} needs approval`
  if (facts.tool === 'WebFetch') return `fetching from ${facts.host ?? 'this URL'} needs approval`
  return `${facts.tool} needs approval`
}
