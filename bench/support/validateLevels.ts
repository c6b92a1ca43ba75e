// How many validations a bench keeps in flight to find validate's maximum: the best of these levels. Validation
// batches concurrent requests into shared statements, so it needs more of them in flight to reach its maximum
// than a bare server, which is saturated at any. At 128 a validation takes half the statements it takes at 64,
// and less CPU; 256 measured no more (docs/performance.md, `validate`).
export const VALIDATE_CONNECTION_LEVELS = [32, 64, 128] as const;

/** The largest level: the connections a pool needs to serve every level. */
export const VALIDATE_MAX_CONNECTIONS = Math.max(...VALIDATE_CONNECTION_LEVELS);
