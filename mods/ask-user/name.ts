/** The tool's name, which the permission check and the answering surfaces know it by. */
export const ASK_USER_TOOL = 'AskUserQuestion'
