/** What ScheduleWakeup's `prompt` holds for a /loop with no task: resolved to AUTONOMOUS_TICK when it fires. */
export const AUTONOMOUS_SENTINEL = '<<autonomous-loop-dynamic>>'

/** The turn `/loop <args>` runs: the model reads the interval, if any, and sets the loop up itself. */
export function loopPrompt(args: string): string {
  return `# /loop: run a task again and again

Split the input at the end of this message into an optional interval and the task to repeat, then set the loop up as below.

## Reading the input

1. An interval first: when the first word looks like \`<number><s|m|h|d>\` (\`10m\`, \`1h\`), it is the interval and the rest is the task.
2. An interval last: otherwise, when the input ends with "every" and a length of time ("every 15m", "every 2 hours"), that is the interval; drop it from the task. "every" followed by anything else ("review every commit") is part of the task.
3. Otherwise there is no interval: the whole input is the task, and you choose the pace (self-paced, below).

With no task left (\`/loop 10m\` alone), tell the user the usage, \`/loop [interval] <task>\`, and do nothing else.

## With an interval

Turn it into a 5-field cron expression: minutes N up to 59 as \`*/N * * * *\`; 60 minutes or more as whole hours, \`0 */H * * *\` (H dividing 24); hours as \`0 */N * * *\`; days as \`0 0 */N * *\`; seconds round up to a whole minute, the finest a schedule can be. When N does not divide its unit evenly (\`7m\`, \`90m\`), take the closest interval that does and say which you took.

1. Call CronCreate with that \`cron\`, the task word for word as \`prompt\`, and \`recurring: true\`.
2. Tell the user in a few words: the schedule (expression and in plain words), the job's id, that it expires after 30 days and that CronDelete stops it sooner.
3. Do the task once now, without waiting for the first run. A task that is a slash command runs through the Skill tool; any other you carry out yourself.

## Self-paced (no interval)

1. Do the task now (a slash command through the Skill tool).
2. Decide whether another round is worth it. If so, call ScheduleWakeup with \`delaySeconds\` chosen from what you saw (see the tool's description), \`reason\` (a short sentence on that choice), \`noop\` (true when this round changed nothing) and \`prompt\`: the user's /loop input word for word, starting with \`/loop \` (for \`/loop check the deploy\`, the prompt is \`/loop check the deploy\`), so the next round comes back here.
3. If no further round is needed (the task is done, or it cannot progress, or the user asked you to stop), call ScheduleWakeup with \`stop: true\` and nothing else.
4. End the turn with a short note to the user, as plain text: what this round found, and when the next one runs or that the loop has ended.

## Input

${args}`
}

/** The turn a bare `/loop` runs: self-paced rounds of upkeep with no task named. */
export const AUTONOMOUS_PROMPT = `# /loop with no task: self-paced upkeep

The user started /loop without a task or an interval. Do one round of the upkeep below now, then pace the next yourself with ScheduleWakeup (no cron job).

1. Do one round now, as described below.
2. To go on, call ScheduleWakeup with \`prompt\` set to exactly \`${AUTONOMOUS_SENTINEL}\`, a \`delaySeconds\` that suits what is going on, a short \`reason\` and \`noop\` (true when the round changed nothing). To end the loop, call it with \`stop: true\` alone.
3. End the turn with a one-line note to the user, as plain text.

## Each round

The user is away or busy; keep their work moving without them. Carry on what this conversation already started: unfinished edits, failing tests, review comments on the branch's pull request, a broken CI run. Do the work rather than describe it. Do not invent new work, and do nothing that cannot be undone (pushing, deleting, publishing) unless the conversation clearly asked for it. When there is nothing to do, say so in one sentence; after a few quiet rounds, stop the loop.`

/** What a wake-up scheduled with AUTONOMOUS_SENTINEL sends the model. */
export const AUTONOMOUS_TICK = `# Self-paced upkeep: the next round

A wake-up you set with ScheduleWakeup fired. Do one more round of the upkeep this conversation's /loop described; if you cannot find its instructions, treat this round as having nothing to do.

The loop goes on only if you call ScheduleWakeup again in this turn, with \`prompt\` set to \`${AUTONOMOUS_SENTINEL}\` and \`noop\` saying whether the round changed anything; call it with \`stop: true\` to end the loop. Finish the turn with a short note to the user, as plain text.`
