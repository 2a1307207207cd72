/**
 * File types for the `type` filter, as globs on the file name. The JavaScript engine uses these;
 * ripgrep has its own list (a superset), so the common names below mirror ripgrep's.
 */
export const FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  c: ['*.[chH]', '*.[chH].in', '*.cats'],
  cpp: ['*.[ChH]', '*.[ChH].in', '*.[ch]pp', '*.[ch]pp.in', '*.[ch]xx', '*.[ch]xx.in', '*.cc', '*.cc.in', '*.hh', '*.hh.in', '*.inl'],
  cs: ['*.cs'],
  css: ['*.css', '*.scss'],
  go: ['*.go'],
  h: ['*.h', '*.hpp'],
  html: ['*.ejs', '*.htm', '*.html'],
  java: ['*.java', '*.jsp', '*.jspx', '*.properties'],
  js: ['*.js', '*.jsx', '*.vue', '*.cjs', '*.mjs'],
  json: ['*.json', 'composer.lock'],
  jsonl: ['*.jsonl'],
  kotlin: ['*.kt', '*.kts'],
  lua: ['*.lua'],
  markdown: ['*.markdown', '*.md', '*.mdown', '*.mkdn', '*.mdx'],
  md: ['*.markdown', '*.md', '*.mdown', '*.mkdn', '*.mdx'],
  php: ['*.php', '*.php3', '*.php4', '*.php5', '*.phtml'],
  py: ['*.py', '*.pyi'],
  ruby: ['*.gemspec', '*.rb', '*.rbw', '.irbrc', 'Gemfile', 'Rakefile', 'config.ru'],
  rust: ['*.rs'],
  scala: ['*.sbt', '*.scala'],
  sh: ['*.bash', '*.sh', '*.zsh', '*.ksh', '*.csh', '.bashrc', '.zshrc', '.profile', '.bash_profile'],
  sql: ['*.psql', '*.sql'],
  swift: ['*.swift'],
  toml: ['*.toml', 'Cargo.lock'],
  ts: ['*.ts', '*.tsx', '*.cts', '*.mts'],
  txt: ['*.txt'],
  xml: ['*.dtd', '*.rng', '*.sch', '*.xhtml', '*.xjb', '*.xml', '*.xml.dist', '*.xsd', '*.xsl', '*.xslt'],
  yaml: ['*.yaml', '*.yml'],
}
