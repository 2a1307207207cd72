/**
 * The credentials `CLAUDE_CODE_SUBPROCESS_ENV_SCRUB` keeps from child processes (Bash commands,
 * Monitor, settings hooks, the status line, stdio MCP servers), the names Claude Code removes: the
 * model API's own keys and headers, OpenTelemetry exporter headers, cloud provider secrets and a
 * GitHub Actions OIDC request token. modloop itself still reads them (a request reads the key
 * afresh each time); only what it starts does not get them, so a prompt-injected `echo
 * $ANTHROPIC_API_KEY` prints nothing. GITHUB_TOKEN and GH_TOKEN stay, as in Claude Code: scripts
 * calling the GitHub API need them.
 */
export const SCRUBBED_VARIABLES: readonly string[] = [
  'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_CUSTOM_HEADERS', 'ANTHROPIC_FOUNDRY_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN',
  'OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_LOGS_HEADERS', 'OTEL_EXPORTER_OTLP_METRICS_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_BEARER_TOKEN_BEDROCK', 'GOOGLE_APPLICATION_CREDENTIALS',
  'AZURE_CLIENT_SECRET', 'AZURE_CLIENT_CERTIFICATE_PATH',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_URL',
]

const SCRUBBED = new Set(SCRUBBED_VARIABLES)

/** Whether `CLAUDE_CODE_SUBPROCESS_ENV_SCRUB` is on in `env`: `1`, `true`, `yes` or `on`, any case. */
export function scrubsSubprocessEnv(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env.CLAUDE_CODE_SUBPROCESS_ENV_SCRUB
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim())
}

/**
 * The environment a child process is given: `env` itself, or, with the scrub on in it, a copy
 * without the credentials above. Read at each spawn, so a settings `env` block turning it on
 * counts from the next command.
 */
export function subprocessEnv<T extends Readonly<Record<string, string | undefined>>>(env: T): T {
  if (!scrubsSubprocessEnv(env)) return env
  const kept: Record<string, string | undefined> = {}
  for (const [key, value] of Object.entries(env)) if (!SCRUBBED.has(key)) kept[key] = value
  return kept as T
}
