import { fileURLToPath } from 'node:url'

/** The absolute path of an example under examples/, as a mod specifier the real loader resolves. */
export const example = (rel: string): string => fileURLToPath(new URL(`../../examples/${rel}`, import.meta.url))
