export const CREATE = `Adds a task to the session's task list, to plan multi-step work and show the user its progress.
- Use it for work of three or more distinct steps, when the user gives several tasks, or to capture new requirements; skip it for a single trivial or purely conversational task.
- subject: a short imperative title ("Fix the login bug"); description: what has to be done; activeForm (optional): the present continuous form shown while the task is in progress ("Fixing the login bug").
- Every task starts as pending. Check TaskList first so as not to add a task twice; set dependencies afterwards with TaskUpdate.`

export const GET = `Reads one task of the task list by its id: subject, description, status, and the tasks it blocks or is blocked by.
Read a task before starting on it, and make sure nothing still blocks it.`

export const LIST = `Lists every task of the task list: id, subject, status, owner, and the open tasks that still block it.
Use it to see progress, to find the next task to take (pending, no owner, not blocked; lowest id first), and after finishing a task.`

export const UPDATE = `Changes a task of the task list.
- status: pending -> in_progress (before starting work) -> completed (only when fully done: not with failing tests, partial work or unresolved errors; keep it in_progress and add a task for the blocker instead). \`deleted\` removes the task for good.
- subject, description, activeForm, owner (an agent's name, to claim a task), metadata (merged in; a key set to null is removed).
- addBlocks / addBlockedBy: ids of tasks that wait on this one / that this one waits on.
Read the task with TaskGet first so as not to act on a stale copy.`
