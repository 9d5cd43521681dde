/**
 * The default size limits of request bodies, in bytes, and the pace they must keep: the settings'
 * defaults, the HTTP layer's and what a restore allows a backed-up config (`linkconfig restore`), so
 * each number is written once.
 */

/** Default `BODY_LIMIT`: bodies that store a config, and so the largest config text. */
export const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024;
/** Default `INLINE_BODY_LIMIT`: every other body. */
export const DEFAULT_INLINE_BODY_LIMIT = 1024 * 1024;

/** The default floor of `BODY_MIN_RATE`: 64 KiB per second. */
export const DEFAULT_BODY_MIN_RATE = 64 * 1024;
