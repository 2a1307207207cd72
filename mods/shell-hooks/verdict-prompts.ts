// The reply contract of spec §3.9: one JSON object, `reason` required when `ok` is false.
const VERDICT = 'one JSON object and nothing else: {"ok": true} when the condition holds, or {"ok": false, "reason": "<what is wrong, as an instruction to the agent>"}.'

/** The system prompt of a prompt hook's model call. */
export const PROMPT_HOOK_SYSTEM = `You evaluate a hook condition for modloop, a coding agent. You get the condition and the hook input JSON of the event. Reply with ${VERDICT}`

/** The system prompt of an agent hook's verifier subagent. */
export const AGENT_HOOK_SYSTEM = `You verify a hook condition for modloop, a coding agent. You get the condition and the hook input JSON of the event; use your tools to check the files as needed. When you are done, reply with ${VERDICT}`
