/** Starts a throwaway Postgres; answers its URL without a database (`postgres://…/`) and its stop. */
export function startPostgres(): Promise<{ url: string; stop(): Promise<void> }>
/** Makes a database on the server and answers its URL. */
export function createDatabase(serverUrl: string, name: string): Promise<string>
