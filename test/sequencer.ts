import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The files that take longest (3 s and more on a 2-core machine, most of it waiting on terminals,
 * children and timeouts), longest first. Vitest runs the longest files first when its cache of
 * durations (under node_modules/.vite) has them; a fresh clone, as CI runs, has none, and in the
 * order of file sizes one of them (a 10 s hook timeout in a short file) came last and held the run
 * open alone. A file missing here only starts later; one that no longer exists is passed over.
 */
const SLOW = [
  'test/fleet/workers.test.ts',
  'test/agent-sdk/agent-sdk.test.ts',
  'test/sessions/crash.test.ts',
  'test/fleet/session-store.test.ts',
  'test/cli/acp.test.ts',
  'test/hooks-runner/message-display-timeout.test.ts',
  'test/terminal-ui/terminal.test.ts',
  'test/tools/bash.test.ts',
  'test/mcp/tools.test.ts',
  'test/faults/model.test.ts',
  'test/plugins/plugin-dir.test.ts',
  'test/terminal-ui/worktree-exit.test.ts',
  'test/terminal-ui/keys.test.ts',
  'test/terminal-ui/prompt-and-tools.test.ts',
  'test/terminal-ui/session-edges.test.ts',
  'test/shell-hooks/session-end-budget.test.ts',
  'test/terminal-ui/status-line.test.ts',
  'test/fleet/worker-death.test.ts',
  'test/faults/mods.test.ts',
  'test/mcp/lifecycle.test.ts',
  'test/monitor/monitor.test.ts',
  'test/faults/hooks.test.ts',
  'test/worktree/tools.test.ts',
  'test/worktree/flag.test.ts',
  'test/faults/signals.test.ts',
  'test/cli/ask-user-sdk.test.ts',
  'test/mcp/tool-search.test.ts',
  'test/tools/bash-concurrency.test.ts',
  'test/mcp/server-approval.test.ts',
  'test/context/commands.test.ts',
  'test/terminal-ui/thinking-and-hooks.test.ts',
  'test/terminal-ui/resume-picker.test.ts',
  'test/cli/code-cache.test.ts',
  'test/hooks-runner/cli.test.ts',
  'test/cli/lean-start.test.ts',
  'test/compaction/session.test.ts',
]

/** Vitest's order, except that with no durations cached the slow files above go first. */
export class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const key = (f: TestSpecification) => relative(this.ctx.config.root, f.moduleId)
    if (sorted.some((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${key(f)}`))) return sorted
    const rank = (f: TestSpecification) => {
      const at = SLOW.indexOf(key(f))
      return at === -1 ? SLOW.length : at
    }
    // Stable: projects keep their turns, and the rest of a project keeps vitest's order.
    const turn = new Map<string, number>()
    sorted.forEach((f, i) => { if (!turn.has(f.project.name)) turn.set(f.project.name, i) })
    return sorted.sort((a, b) => turn.get(a.project.name)! - turn.get(b.project.name)! || rank(a) - rank(b))
  }
}
