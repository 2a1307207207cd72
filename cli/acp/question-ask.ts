import type { AgentContext, PermissionOption } from '@agentclientprotocol/sdk'
import type { PermissionResult } from '../../core/tools/pipeline.js'

interface Question { question: string; header?: string; options: { label: string; description?: string }[] }

const DECLINE = 'decline'

/**
 * AskUserQuestion's ask in an editor: each question in turn as a `session/request_permission`
 * whose options are the question's (the option id is its index), with one to decline. ACP has no
 * multi-select and no free text, so the editor picks one option per question. The answers go back
 * as the allow's input, as the terminal's do; a declined question declines them all.
 */
export async function askQuestions(client: AgentContext, sessionId: string, toolUseId: string, input: Record<string, unknown>, signal: AbortSignal): Promise<PermissionResult | 'cancelled'> {
  const answers: Record<string, string> = {}
  for (const q of (input.questions ?? []) as Question[]) {
    const options: PermissionOption[] = [
      ...q.options.map((o, i) => ({ optionId: String(i), name: o.description ? `${o.label} — ${o.description}` : o.label, kind: 'allow_once' as const })),
      { optionId: DECLINE, name: 'Decline to answer', kind: 'reject_once' },
    ]
    const answer = await client.request('session/request_permission', {
      sessionId, options,
      toolCall: { toolCallId: toolUseId, title: q.header ? `${q.header}: ${q.question}` : q.question, kind: 'think', status: 'pending', rawInput: input },
    }, { cancellationSignal: signal, stopWaitingOnCancel: true })
    if (answer.outcome.outcome === 'cancelled' || signal.aborted) return 'cancelled'
    const picked = q.options[Number(answer.outcome.optionId)]
    if (answer.outcome.optionId === DECLINE || !picked) return { behavior: 'deny', message: 'The user declined to answer the questions.' }
    answers[q.question] = picked.label
  }
  return { behavior: 'allow', updatedInput: { ...input, answers } }
}
