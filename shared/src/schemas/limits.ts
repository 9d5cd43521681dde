/** Hard limits of the contract, shared by server and clients. */
export const LIMITS = {
  /** Longest config name, in UTF-16 code units. */
  nameMaxLength: 256,
  /** Deepest nesting of objects and arrays in a request body or a stored config. */
  nestingMax: 256,
  /** Longest expression, in UTF-16 code units (64 KiB). */
  expressionMaxLength: 65_536,
  /** Most items in a `/query` `configs` array. */
  queryConfigsMax: 50,
  /** `/search` `limit` default and ceiling. */
  searchLimitDefault: 100,
  searchLimitMax: 1000,
  /** Longest `regex` or `config` pattern of `/search`. */
  searchPatternMaxLength: 1000,
  /** Most calls in one `/trpc` batch (the client's `httpBatchLink` splits larger ones). */
  trpcBatchMax: 16,
} as const;
