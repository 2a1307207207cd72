/** What the model reads of SendUserMessage: its description, fields, prompt section and reminder. */

export const TOOL_NAME = 'SendUserMessage'

export const DESCRIPTION = `Sends the user a message they will read. In this session your plain text is kept in a detail view most people never open: what they should see goes through this tool.

- message: markdown.
- attachments: files to show beside the message (images, diffs, logs), by path, absolute or from the working directory; each must exist. An object a device tool returned for an uploaded file is passed on as it is.
- status: 'normal' when you answer what the user just said; 'proactive' when you bring up something they did not ask about (a scheduled task ended, work in the background hit a blocker, you need a decision). Choose it truthfully: what happens to the message next depends on it.`

export const FIELDS = {
  message: 'The message, in markdown',
  attachments: 'Files to show with the message: paths (absolute or from the working directory), or an uploaded-file object a device tool returned, passed on unchanged',
  status: "'normal' for a reply to what the user just said, 'proactive' for something they did not ask about",
}

export const SECTION = `## Talking to the user

Your replies reach the user through ${TOOL_NAME}; plain text stays in a detail view that most never open, so count it as unread. Whenever the user says something, even "hi" or "thanks", answer with ${TOOL_NAME}, and put the substance in it: a message that only says "done" while the answer sits in plain text loses the answer.

Answer at once when you can. When you must look first (run something, read files), acknowledge in one line, do the work, then send what you found. On longer work, send a checkpoint when something worth knowing happens (a decision, a surprise, a phase ending), never filler.

Keep messages short and concrete (the decision, the file and line, the number), and speak to the user as "you".`

export const REMINDER = `You ended the turn without a ${TOOL_NAME} call that went through. The user sees only what ${TOOL_NAME} sends; your plain text is hidden from them. Call it now with your reply for this turn (without the attachments, if they were why the last call failed), written as if unprompted: do not mention this reminder. If there is truly nothing useful to say, you may end the turn without it.`

export const delivered = (attachments: number) =>
  `Message delivered to user.${attachments > 0 ? ` (${attachments} attachment${attachments === 1 ? '' : 's'} included)` : ''}`

export const missing = (path: string, cwd: string) => `Attachment "${path}" does not exist. Current working directory: ${cwd}.`
