import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'

/** Writes files under a root, making their directories. */
export async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, rel)), { recursive: true })
    await writeFile(join(root, rel), text)
  }
}

/**
 * A plugin in the Claude Code layout with a command, a skill and an agent, and no hooks: what a
 * commands-only published plugin looks like.
 */
export async function writeToolsPlugin(root: string, extra: Record<string, string> = {}): Promise<void> {
  await writeTree(root, {
    '.claude-plugin/plugin.json': JSON.stringify({ name: 'tools', version: '1.2.3', description: 'Release helpers' }),
    'commands/deploy.md': '---\ndescription: Deploy a service\nargument-hint: <service>\n---\nDeploy $0 with ${CLAUDE_PLUGIN_ROOT}/scripts/deploy.sh\n',
    'skills/changelog/SKILL.md': '---\nname: changelog\ndescription: Write the changelog entry\n---\nRead the commits and write the entry.\n',
    'agents/reviewer.md': '---\nname: reviewer\ndescription: Reviews a change\n---\nYou review changes.\n',
    ...extra,
  })
}
