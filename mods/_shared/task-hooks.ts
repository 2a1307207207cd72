declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    /**
     * The TaskCreated / TaskCompleted settings hooks, provided by the mod that runs settings hooks
     * and fired by the task-list tools: resolves to the feedback of the hooks that refused the
     * creation or the completion (exit 2, `decision: "block"`), undefined when none did.
     */
    taskHooks: (req: TaskHookRequest) => Promise<string | undefined>
  }
}

export interface TaskHookRequest {
  sessionId: string
  event: 'TaskCreated' | 'TaskCompleted'
  task: { id: string; subject: string; description: string }
  agentId?: string
}

export {}
