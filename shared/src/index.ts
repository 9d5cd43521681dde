/**
 * @module @linkconfig/shared
 * The pure core of the Link Config Service: zod contracts (the only place types are written), the
 * link-expression engine and the URL sanitizer. No I/O; runs unchanged in Node and in browsers.
 */
export * from './schemas/index.js';
export * from './expression/index.js';
export * from './transfer/index.js';
export * from './sync/index.js';
export * from './access/index.js';
export * from './tags/index.js';
export * from './links/index.js';
export {
  compareConfigs,
  comparingConfigs,
  countLinks,
  diffConfigs,
  diffingConfigs,
  isSameComparison,
  summarizeDiff,
} from './util/config-diff.js';
export { DURATION_UNITS } from './util/duration-units.js';
export type { DurationUnit } from './util/duration-units.js';
export { commonHead, commonTail } from './util/common-ends.js';
export { jsonText } from './util/json-text.js';
export { BLOCKED_KEYS, isBlockedKey, setOwn } from './util/own-property.js';
export { runAtOnce, runInSlices, slicePauser } from './util/slices.js';
export type { Sliced } from './util/slices.js';
