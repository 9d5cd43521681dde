/**
 * @module expression
 * The link-expression engine (docs/expression-reference.md): config preparation and merging, resolution of
 * expressions, the search-pattern safety heuristic and the URL sanitizer. Pure: no I/O, Node or browser.
 */
export { isPlainObject } from '../util/is-plain-object.js';
export { closestNames, editDistance } from '../util/edit-distance.js';
export { sameValue } from '../util/same-value.js';
export type { SliceOptions } from '../util/slices.js';
export { analyzeConfig } from './analyze/analyze-config.js';
export {
  analyzeExpression,
  resolveIdsWithAnalysis,
  resolveIdsWithAnalysisInSlices,
  resolveWithAnalysis,
} from './analyze/analyze.js';
export type {
  AnalyzeOptions,
  Dependency,
  DependencyKind,
  ExpressionAnalysis,
  IdsWithAnalysis,
  ResolveWithAnalysisOptions,
} from './analyze/analyze.js';
export { overlayConfigs } from './prepare/overlay.js';
export { mergePrepared } from './prepare/merge-prepared.js';
export { decidingPart } from './prepare/merge-owner.js';
export { overParts } from './evaluate/over-parts.js';
export { prepareConfig, prepareConfigInSlices } from './prepare/prepare.js';
export { resolve, toCherryPick, toResolvedLinks } from './evaluate/resolve.js';
export {
  compileLinear,
  compileSafePattern,
  isSafePattern,
} from './safety/safe-pattern.js';
export {
  sanitizeConfigLinks,
  sanitizeLink,
  sanitizingConfigLinks,
} from './safety/sanitize-link.js';
export { BLOCKED_URL, sanitizeUrl } from './safety/sanitize-url.js';
export { LINK_FIELD_ORDER } from './types.js';
export type {
  FilterProtocolHandler,
  PreparedConfig,
  PreparedLink,
  PreparedSearchPattern,
  ResolveOptions,
} from './types.js';
export type { ResolvedLink } from '../schemas/index.js';
