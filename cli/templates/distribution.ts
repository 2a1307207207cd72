/** The files `modloop init distribution <name>` writes: a config extending the coding distribution. */
export function distributionFiles(name: string): Record<string, string> {
  return {
    'modloop.config.json': `${JSON.stringify({
      extends: 'modloop',
      mods: [
        ['permissions', { deny: ['Bash(git push:*)'] }],
        { name: 'web-fetch', enabled: false },
      ],
    }, null, 2)}\n`,
    'README.md': `# ${name}

A modloop distribution. It extends \`modloop\` — the default coding distribution with every
built-in mod — and changes it in \`modloop.config.json\`:

- \`["permissions", { … }]\` re-configures a built-in mod (here: no \`git push\` from Bash);
- \`{ "name": "web-fetch", "enabled": false }\` removes one;
- \`"./my-mod"\` or a package name adds one (\`modloop init mod my-mod\` scaffolds that directory
  here; list the mod in \`mods\` by its path).

Check and run it:

\`\`\`sh
modloop mods list --config .
modloop -p "what does this project do?" --config .
\`\`\`
`,
  }
}
