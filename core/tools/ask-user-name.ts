/**
 * The AskUserQuestion tool's name. The tool is a mod's (mods/ask-user), but `$.ui.ask` runs as a
 * tool.call of it (spec mods §3.7), so the runtime knows it by name too.
 */
export const ASK_USER_TOOL = 'AskUserQuestion'
