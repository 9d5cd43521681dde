/**
 * Types shared by the parts of the expression engine: the prepared form of a config
 * (docs/expression-reference.md §13) and the hooks through which the evaluator reaches search patterns and
 * protocols. Types and constants only: this file imports nothing local, so every module can depend on it
 * without a cycle.
 */
import type { RE2JS } from 're2js';

/**
 * A link after preparation (docs/expression-reference.md §13, §16): only the known fields, each with the
 * right type, in their fixed order, URLs sanitized. Shared by every resolution of the same prepared config:
 * treat it as read-only.
 */
export type PreparedLink = {
  url: string;
  label?: string;
  tags?: string[];
  cssClass?: string;
  image?: string;
  altText?: string;
  targetWindow?: string;
  description?: string;
  thumbnail?: string;
  hooks?: string[];
  guid?: string;
  createdAt?: unknown;
  allowedSchemes?: string[];
  meta?: Record<string, unknown>;
};

/**
 * A stored search pattern after preparation: compiled once (D3), options kept unchecked
 * (docs/expression-reference.md §13).
 */
export interface PreparedSearchPattern {
  /** Compiled case-insensitively with re2js; `null` when re2js refused it (the atom is then `∅`). */
  readonly regex: RE2JS | null;
  /**
   * `options` of the object form, as stored (not validated, docs/expression-reference.md §8.3 / D2); `{}`
   * when absent.
   */
  readonly options: Readonly<Record<string, unknown>>;
}

/**
 * A config prepared once per stored version and reused by every resolution (docs/expression-reference.md §1
 * step 1, §13).
 */
export interface PreparedConfig {
  /** Link ids in catalog order (docs/expression-reference.md §7). */
  readonly ids: readonly string[];
  /** Prepared links by id. Only real ids: never inherited object members. */
  readonly links: ReadonlyMap<string, PreparedLink>;
  /** Catalog position of every id, for ordering without scans. */
  readonly position: ReadonlyMap<string, number>;
  /** Tag → ids carrying it, in catalog order, each id once. */
  readonly tagIndex: ReadonlyMap<string, readonly string[]>;
  /** Macro name → `linkItems` (docs/expression-reference.md §3, §13). */
  readonly macros: ReadonlyMap<string, string>;
  /** Search-pattern key → prepared pattern (docs/expression-reference.md §8, §13). */
  readonly searchPatterns: ReadonlyMap<string, PreparedSearchPattern>;
  /** Names present in the config's `protocols` section (data only, docs/expression-reference.md §10.1). */
  readonly protocolNames: ReadonlySet<string>;
  /** The prepared `settings` section, if any (blocked keys removed). */
  readonly settings: Readonly<Record<string, unknown>> | undefined;
  /**
   * Names preparation removed that an expression may still try to use, for diagnostics only: `resolve`
   * never reads it. Absent on prepared configs built by other means (then nothing is known).
   */
  readonly dropped?: DroppedNames;
  /**
   * What merging needs beyond the prepared parts (§14): the keys of the stored sections, whether or not
   * preparation kept them, so a config merged from prepared parts equals the preparation of the merged
   * stored configs (`mergePrepared`).
   */
  readonly source?: MergeSource;
}

/** The stored keys of a config's sections, blocked keys left out, in stored key order. */
export interface MergeSource {
  readonly linkKeys: readonly string[];
  /** `null` when the config has no `macros` object. */
  readonly macroKeys: readonly string[] | null;
  /** `null` when the config has no `searchPatterns` object. */
  readonly patternKeys: readonly string[] | null;
}

/** Why a stored search pattern was dropped by preparation (docs/expression-reference.md §13, §8.4, D3). */
export type SearchPatternProblem =
  /** The key contains `-`, so no `/key/` atom can name it. */
  | 'hyphen'
  /** Neither a string nor an object with a string `pattern`. */
  | 'shape'
  /** Not valid JavaScript regular-expression syntax. */
  | 'invalid'
  /** Refused by the safety heuristic (a quantified group with a quantifier inside). */
  | 'unsafe'
  /** Accepted by the heuristic but not by the linear-time engine (lookaround, backreferences, …). */
  | 'unsupported'
  /** A program larger than `LIMITS.patternProgramMax` (large counted repeats): too costly to run. */
  | 'too_large';

/** What preparation dropped, by name (see {@link PreparedConfig.dropped}). */
export interface DroppedNames {
  /** Link ids removed because they contain `-`. */
  readonly ids: ReadonlySet<string>;
  /** Tags removed from links because they contain `-`. */
  readonly tags: ReadonlySet<string>;
  /** Search-pattern keys removed, with the reason. */
  readonly searchPatterns: ReadonlyMap<string, SearchPatternProblem>;
}

/**
 * A filter protocol handler (docs/expression-reference.md §10.1, D1): called once per link in catalog order
 * with the protocol's arguments, the prepared link and its id; truthy keeps the link, a throw excludes that
 * link only.
 */
export type FilterProtocolHandler = (
  args: readonly string[],
  link: PreparedLink,
  id: string,
) => unknown;

/** Options of {@link resolve}. */
export interface ResolveOptions {
  /** Current time in ms since the epoch (default `Date.now()`), for `:time:` and search `age`. */
  now?: number;
  /** Random source in [0, 1) for `*shuffle*` (default `Math.random`). */
  random?: () => number;
  /** Extra filter protocol handlers by name (D1); a name here overrides a built-in one. */
  handlers?: Readonly<Record<string, FilterProtocolHandler>>;
  /** Register the built-in `:time:` and `:location:` filters (default `true`, D1). */
  builtinProtocols?: boolean;
}

/** String fields copied as they are (docs/expression-reference.md §13 order, between `tags` and `hooks`). */
export const PLAIN_STRING_FIELDS = [
  'cssClass',
  'image',
  'altText',
  'targetWindow',
  'description',
  'thumbnail',
] as const;

/**
 * The fields of a prepared link, in the order preparation keeps and results show them
 * (docs/expression-reference.md §13, §16).
 */
export const LINK_FIELD_ORDER = [
  'url',
  'label',
  'tags',
  ...PLAIN_STRING_FIELDS,
  'hooks',
  'guid',
  'createdAt',
  'allowedSchemes',
  'meta',
] as const;
