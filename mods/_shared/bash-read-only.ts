declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    /**
     * Whether a Bash command line only reads: every command on it known to read and nothing else
     * (no writing redirection, `cd`, substitution, subshell or `&`). Provided by the mod that knows the
     * commands (permissions); Bash runs such a call beside the response's other read-only calls.
     */
    bashReadOnly: (command: string) => boolean
  }
}

export {}
