/** Hard limits of the contract, shared by server and clients. */
export const LIMITS = {
  /** Longest config name, in characters (Unicode code points, as zod's `.max` counts them). */
  nameMaxLength: 256,
  /** Deepest nesting of objects and arrays in a request body or a stored config. */
  nestingMax: 256,
  /** Longest expression, in characters (Unicode code points, as zod's `.max` counts them). */
  expressionMaxLength: 65_536,
  /** Most items in a `/query` `configs` array. */
  queryConfigsMax: 50,
  /** `/search` `limit` default and ceiling. */
  searchLimitDefault: 100,
  searchLimitMax: 1000,
  /** Longest `regex` or `config` pattern of `/search`. */
  searchPatternMaxLength: 1000,
  /**
   * Largest program the linear-time engine may build for a pattern (re2js's `programSize()`, about one
   * step per character, class or empty branch; `a{1,100}` is 200). Matching costs up to the program's
   * size in steps per character of text, and more than that for larger programs, so a short pattern
   * with large counted repeats (`a{1,1000}a{1,1000}b`, 4,001) would hold the server for seconds.
   */
  patternProgramMax: 1000,
  /** Most calls in one `/trpc` batch (the client's `httpBatchLink` splits larger ones). */
  trpcBatchMax: 16,
} as const;
