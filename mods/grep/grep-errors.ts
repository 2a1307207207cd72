/** The pattern does not compile (either engine): the model is told which pattern. */
export class PatternError extends Error {}

/** The `type` filter names no known file type. */
export class UnknownTypeError extends Error {}
