import stringWidth from 'string-width'
import { describe, expect, it, vi } from 'vitest'
import { renderPretty } from '../../cli/pretty.js'
import type { SDKMessage } from '../../core/loop/messages.js'
import { painter } from '../../mods/terminal-ui/color.js'
import { renderMarkdown } from '../../mods/terminal-ui/markdown.js'
import { MessageView } from '../../mods/terminal-ui/message-view.js'
import { PendingPrompts } from '../../mods/terminal-ui/pending.js'
import { localTime } from '../../mods/terminal-ui/resume.js'
import { Screen } from '../../mods/terminal-ui/screen.js'
import { ThinkingLog } from '../../mods/terminal-ui/thinking-view.js'
import { compactFailure, systemLine } from '../../mods/terminal-ui/system-view.js'
import { detailLines, doneLine, printable, toolTitle } from '../../mods/terminal-ui/tool-view.js'

const plain = painter({ NO_COLOR: '1' })
const system = (fields: Record<string, unknown>) => ({ type: 'system', session_id: 's', uuid: 'u', ...fields }) as Extract<SDKMessage, { type: 'system' }>

describe('markdown', () => {
  it('renders inline markup inside list items, tight and nested', async () => {
    const out = await renderMarkdown('- item **bold one** and `code`\n  1. nested **deep**\n\n1. first *it*\n', 78, plain)
    expect(out).toContain('* item bold one and code')
    expect(out).toContain('1. nested deep')
    expect(out).toContain('1. first it')
    expect(out).not.toContain('**')
    expect(out).not.toContain('`')
  })
})

describe('tool output', () => {
  it('loses escape sequences and control characters; a carriage return keeps what stays on screen', () => {
    expect(printable('\u001b[2J\u001b[Hclear\u001b[31m red\u001b[0m\n10%\r50%\r100%\nbell\u0007 ok')).toBe('clear red\n100%\nbell ok')
  })

  it('a long title is cut by columns and never cuts off the outcome and time', () => {
    const title = toolTitle('Bash', { command: `printf '${'漢字'.repeat(40)}' 🎉🎉` })
    // 60 columns of argument at most, CJK counting two each.
    expect(title).toMatch(/^Bash\(printf '漢字[漢字]*…\)$/)
    expect(stringWidth(title)).toBeLessThanOrEqual(66)
    const line = doneLine(title, 'ok', 1234, plain, 50)
    expect(line).toMatch(/^✔ Bash\(printf .*… · ok · 1\.2s$/)
    expect(toolTitle('Bash', { command: `${'a'.repeat(58)}🎉🎉` })).toBe(`Bash(${'a'.repeat(58)}…)`)
  })

  it('names a file under the working directory from there, any other file by its whole path', () => {
    expect(toolTitle('Edit', { file_path: '/p/src/app.ts', old_string: 'a' }, '/p')).toBe('Edit(src/app.ts)')
    expect(toolTitle('NotebookEdit', { notebook_path: '/p/n.ipynb' }, '/p')).toBe('NotebookEdit(n.ipynb)')
    expect(toolTitle('Grep', { pattern: 'x', path: '/p/lib' }, '/p')).toBe('Grep(x)')
    expect(toolTitle('Read', { file_path: '/elsewhere/a.txt' }, '/p')).toBe('Read(/elsewhere/a.txt)')
    expect(toolTitle('Read', { file_path: '/p2/a.txt' }, '/p')).toBe('Read(/p2/a.txt)')
    expect(toolTitle('Read', { file_path: '/p' }, '/p')).toBe('Read(/p)')
    expect(toolTitle('Read', { file_path: '/p/a.txt' })).toBe('Read(/p/a.txt)')
  })

  it('shows the head of long output with the count of the rest', () => {
    const text = Array.from({ length: 50 }, (_, i) => `line ${i}\u001b[K`).join('\n')
    const lines = detailLines('Bash', undefined, text, 'ok', plain)
    expect(lines).toEqual(['  ⎿  line 0', '     line 1', '     line 2', '     line 3', '     … +46 lines'])
  })
})

describe('the task list', () => {
  it('shows the list below each task-list call, as TodoWrite\'s is', async () => {
    let written = ''
    const view = new MessageView(new Screen({ write: (t: string) => (written += t), columns: 80 }), plain, () => {})
    const usage = { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }
    const call = async (id: string, name: string, input: Record<string, unknown>, result: unknown, text: string) => {
      view.onMessage({ type: 'assistant', parent_tool_use_id: null, message: { usage, content: [{ type: 'tool_use', id, name, input }] } } as unknown as SDKMessage)
      view.onMessage({ type: 'user', parent_tool_use_id: null, tool_use_result: result, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] } } as unknown as SDKMessage)
      await view.settled()
      const shown = written
      written = ''
      return shown
    }
    await call('t1', 'TaskCreate', { subject: 'Write tests', description: 'd' }, { task: { id: '1', subject: 'Write tests', description: 'd' } }, 'Task #1 created successfully: Write tests')
    const second = await call('t2', 'TaskCreate', { subject: 'Ship', description: 'd' }, { task: { id: '2', subject: 'Ship', description: 'd' } }, 'Task #2 created successfully: Ship')
    expect(second).toContain('TaskCreate(Ship) · ok')
    expect(second).toMatch(/☐ Write tests\n.*☐ Ship/)
    const started = await call('t3', 'TaskUpdate', { taskId: '1', status: 'in_progress' }, { success: true, taskId: '1', updatedFields: ['status'], statusChange: { from: 'pending', to: 'in_progress' } }, 'Updated task #1 status')
    expect(started).toMatch(/◐ Write tests\n.*☐ Ship/)
    const gone = await call('t4', 'TaskUpdate', { taskId: '2', status: 'deleted' }, { success: true, taskId: '2', updatedFields: ['deleted'], statusChange: { from: 'pending', to: 'deleted' } }, 'Updated task #2 deleted')
    expect(gone).toContain('◐ Write tests')
    expect(gone).not.toContain('Ship')
    // TaskList gives the whole list, tasks the view had not seen included.
    const listed = await call('t5', 'TaskList', {}, { tasks: [{ id: '1', subject: 'Write tests', status: 'completed', blockedBy: [] }, { id: '7', subject: 'Older', status: 'pending', blockedBy: [] }] }, '#1 [completed] Write tests\n#7 [pending] Older')
    expect(listed).toMatch(/☒ Write tests\n.*☐ Older/)
  })
})

describe('system messages', () => {
  it('draws a compaction boundary with its trigger, figures and time', () => {
    const line = systemLine(system({ subtype: 'compact_boundary', compact_metadata: { trigger: 'manual', pre_tokens: 12_345, post_tokens: 321, duration_ms: 1_500 } }), plain, 79)!
    expect(line).toMatch(/^─── Conversation compacted · on request · 12,345 → 321 tokens · 1\.5s ─+$/)
    expect(line.length).toBe(79)
  })

  it('shows notices; status messages and retries are left to the live region', () => {
    expect(systemLine(system({ subtype: 'api_retry', attempt: 2, max_retries: 10, retry_delay_ms: 500, error_message: 'overloaded' }), plain, 79)).toBeUndefined()
    expect(systemLine(system({ subtype: 'informational', level: 'info', content: 'reloaded' }), plain, 79)).toBe('reloaded')
    expect(systemLine(system({ subtype: 'status', status: 'compacting' }), plain, 79)).toBeUndefined()
    expect(compactFailure(system({ subtype: 'status', status: null, compact_result: 'failed', compact_error: 'too small' }))).toBe('too small')
    expect(compactFailure(system({ subtype: 'status', status: null, compact_result: 'success' }))).toBeUndefined()
  })

  it('a retry is a live line counting down to the next attempt, gone once the answer streams', async () => {
    vi.useFakeTimers({ toFake: ['performance'] })
    try {
      let written = ''
      const view = new MessageView(new Screen({ write: (t: string) => (written += t), columns: 80 }), plain, () => {})
      view.onMessage(system({ subtype: 'api_retry', attempt: 1, max_retries: 10, retry_delay_ms: 8000, error_status: 529, error_message: 'Overloaded' }))
      expect(view.liveLines()).toEqual(['↻ Overloaded · retrying in 8s · attempt 1/10'])
      vi.advanceTimersByTime(3000)
      expect(view.liveLines()).toEqual(['↻ Overloaded · retrying in 5s · attempt 1/10'])
      view.onMessage({ type: 'stream_event', event: { type: 'message_start' }, parent_tool_use_id: null, session_id: 's', uuid: 'u' } as unknown as SDKMessage)
      expect(view.liveLines()).toEqual([])
      await view.settled()
      expect(written).not.toContain('retrying')
    } finally {
      vi.useRealTimers()
    }
  })

  it('a compaction runs as a live spinner; its failure is printed once, not again beside a command that reported it', async () => {
    let written = ''
    const view = new MessageView(new Screen({ write: (t: string) => (written += t), columns: 80 }), plain, () => {})
    const result = (text: string) => ({ type: 'result', subtype: 'success', is_error: false, result: text, total_cost_usd: 0, terminal_reason: 'completed' }) as unknown as SDKMessage
    view.onMessage(system({ subtype: 'status', status: 'compacting' }))
    expect(view.liveLines().join('\n')).toContain('Compacting the conversation…')
    view.onMessage(system({ subtype: 'status', status: null, compact_result: 'failed', compact_error: 'nothing to compact' }))
    expect(view.liveLines()).toEqual([])
    view.onMessage(result('Not compacted: nothing to compact'))
    view.onMessage(system({ subtype: 'status', status: null, compact_result: 'failed', compact_error: 'the summary request failed' }))
    view.onMessage(result('done'))
    await view.settled()
    expect(written.match(/Compaction failed/g)).toEqual(['Compaction failed'])
    expect(written).toContain('⚠ Compaction failed: the summary request failed')
  })

  it('a retried request drops the failed attempt\'s unfinished paragraph instead of running it into the new answer', async () => {
    let written = ''
    const view = new MessageView(new Screen({ write: (t: string) => (written += t), columns: 80 }), plain, () => {})
    const ev = (event: unknown) => ({ type: 'stream_event', event, parent_tool_use_id: null, session_id: 's', uuid: 'u' }) as unknown as SDKMessage
    view.onMessage(ev({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }))
    view.onMessage(ev({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'partial answer that brea' } }))
    view.onMessage(system({ subtype: 'api_retry', attempt: 1, max_retries: 10, retry_delay_ms: 1, error_message: 'cut off' }))
    expect(view.liveLines().join('\n')).not.toContain('partial answer')
    view.onMessage(ev({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }))
    view.onMessage(ev({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'the whole answer' } }))
    view.onMessage(ev({ type: 'content_block_stop', index: 0 }))
    await view.settled()
    expect(written).toContain('the whole answer')
    expect(written).not.toContain('partial answer')
  })

  it('a call\'s time leaves out the wait for a permission answer; the spinner says it waits', async () => {
    vi.useFakeTimers({ toFake: ['performance'] })
    try {
      let written = ''
      const view = new MessageView(new Screen({ write: (t: string) => (written += t), columns: 80 }), plain, () => {})
      const usage = { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }
      view.onMessage({ type: 'assistant', parent_tool_use_id: null, message: { usage, content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'sleep 1' } }] } } as unknown as SDKMessage)
      view.asking('t1', true)
      vi.advanceTimersByTime(4000)
      expect(view.liveLines().join('\n')).toContain('Bash(sleep 1) waiting for permission')
      view.asking('t1', false)
      vi.advanceTimersByTime(1000)
      expect(view.liveLines().join('\n')).toContain('Bash(sleep 1) 1.0s')
      // The terminal's tool.call handler timed the call with the ask inside it.
      view.toolOutcome('t1', 'ok', 5000)
      view.onMessage({ type: 'user', parent_tool_use_id: null, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '' }] } } as unknown as SDKMessage)
      await view.settled()
      expect(written).toContain('Bash(sleep 1) · ok · 1.0s')
    } finally {
      vi.useRealTimers()
    }
  })

  it('a paragraph still streaming shows its latest words, wrapped, not its first line cut at the width', () => {
    const view = new MessageView(new Screen({ write: () => {}, columns: 40 }), plain, () => {})
    const ev = (event: unknown) => ({ type: 'stream_event', event, parent_tool_use_id: null, session_id: 's', uuid: 'u' }) as unknown as SDKMessage
    view.onMessage(ev({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }))
    view.onMessage(ev({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ') } }))
    const live = view.liveLines()
    expect(live.at(-1)).toMatch(/w29$/)
    expect(live.every((l) => stringWidth(l) <= 39)).toBe(true)
  })

  it('-p --verbose prints the boundary and a compaction status', () => {
    expect(renderPretty(system({ subtype: 'compact_boundary', compact_metadata: { trigger: 'auto', pre_tokens: 900, post_tokens: 90 } }), { color: false })).toBe('— conversation compacted (auto · 900 → 90 tokens)\n')
    expect(renderPretty(system({ subtype: 'status', status: 'compacting' }), { color: false })).toBe('… compacting the conversation\n')
    expect(renderPretty(system({ subtype: 'status', status: null, compact_result: 'failed', compact_error: 'no' }), { color: false })).toBe('compaction failed: no\n')
    expect(renderPretty(system({ subtype: 'status', status: null, compact_result: 'success' }), { color: false })).toBe('')
  })
})

describe('prompts waiting for a turn', () => {
  it('mirror the loop queue: a turn takes now, then next, then later; next ones join at a tool round', () => {
    const p = new PendingPrompts()
    p.add('a', 'later')
    p.add('b', 'next')
    p.add('c', 'next')
    p.add('d', 'now')
    expect(p.lines(plain)).toEqual(['› a  (after this turn)', '› b  (queued)', '› c  (queued)', '› d  (interrupting)'])
    expect(p.takeStarting()).toBe('d')
    expect(p.takeJoining()).toEqual(['b', 'c'])
    expect(p.takeStarting()).toBe('a')
    expect(p.size).toBe(0)
  })

  it('a long waiting prompt is cut to the width, keeping its label', () => {
    const p = new PendingPrompts()
    p.add(`please ${'refactor '.repeat(20)}\nand more`, 'next')
    const [line] = p.lines(plain, 40)
    expect(line).toMatch(/^› please refactor .*…  \(queued\)$/)
    expect(stringWidth(line!)).toBeLessThanOrEqual(40)
  })
})

describe('thinking', () => {
  it('collapses each ended block to one line; expanding shows the latest turn that thought, and keeps new blocks full', () => {
    const log = new ThinkingLog(plain)
    log.blockStarted()
    expect(log.blockEnded('step one\nstep two\u001b[2J')).toBe('∴ Thought for <1s (2 lines) · ctrl+o to expand')
    expect(log.blockEnded('   ')).toBeUndefined()
    expect(log.blockEnded('whole block')).toBe('∴ Thought (1 line) · ctrl+o to expand')
    log.turnStarted()
    // A turn without thinking leaves the last one to expand.
    log.turnStarted()
    expect(log.toggle()).toBe('∴ Thinking of the last turn · ctrl+o to collapse\n∴ step one\n  step two\n∴ whole block')
    log.turnStarted()
    expect(log.blockEnded('new turn')).toBe('∴ new turn')
    expect(log.toggle()).toBe('∴ Thinking collapsed · ctrl+o to expand')
    expect(log.toggle()).toBe('∴ Thinking of the last turn · ctrl+o to collapse\n∴ new turn')
  })

  it('says so when there is no thinking to expand yet', () => {
    expect(new ThinkingLog(plain).toggle()).toBe('∴ No thinking yet; new thinking shows in full · ctrl+o to collapse')
  })
})

describe('the /resume list', () => {
  it("dates a session by the user's clock, not by UTC", () => {
    const zone = process.env.TZ
    process.env.TZ = 'Asia/Tokyo'
    try {
      expect(localTime('2026-12-06T02:31:09.000Z')).toBe('2026-12-06 11:31')
    } finally {
      if (zone === undefined) delete process.env.TZ
      else process.env.TZ = zone
    }
  })
})
