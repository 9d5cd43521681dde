/**
 * @module tags
 * Tags as things a maintainer manages: the one rewrite rule of a tag rename over the expression grammar,
 * the rename plan with its preview, and the inventory of a config's tags with their users and variants.
 */
export {
  idsNamedIn,
  renameIdInExpression,
  renameTagInExpression,
  tagsNamedIn,
} from './rewrite-expression.js';
export { expressionPlaces } from './expression-places.js';
export type { ExpressionPlace } from './expression-places.js';
export { planTagRename } from './plan-rename.js';
export type { TagRenamePlan } from './plan-rename.js';
export { tagInventory } from './tag-inventory.js';
export type { TagUse, TagVariantKind } from './tag-inventory.js';
