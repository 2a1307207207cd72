/** The tool's name, which the permission check and the answering surfaces know it by: core's, as `$.ui.ask` runs through it. */
export { ASK_USER_TOOL } from '../../core/tools/ask-user-name.js'
/**
 * The rule its ask carries: an ask a PreToolUse hook's allow cannot settle (only a person has the
 * answers), and one a PermissionRequest hook that gave the answers has settled.
 */
export const USER_INPUT_RULE = '[user-input]'
