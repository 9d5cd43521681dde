/**
 * Generated link configs for the property tests of the text paths (`link-text-patch`, `link-text-edit`):
 * keys that need escaping, any JSON value a little deep, links with a `url` and other members.
 */
import fc from 'fast-check';

/** A member name: the usual ones, ones JSON must escape, and short random strings. */
export const key = fc.oneof(
  fc.constantFrom('url', 'label', 'tags', 'a"b', 'x\\y', 'é', '\u2028'),
  fc.string({ maxLength: 4 }),
);
const scalar = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
/** Any JSON value, a few levels deep at most. */
export const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 3 }),
  ),
})).value;
const link = fc
  .tuple(fc.string({ maxLength: 6 }), fc.dictionary(key, json, { maxKeys: 3 }))
  .map(([url, rest]) => ({ ...rest, url }));
/** One to six links under short random keys. */
export const links = fc.dictionary(fc.string({ maxLength: 4 }), link, {
  minKeys: 1,
  maxKeys: 6,
});
/** A config: its links, a macro or two, a setting or two (not always one the config check accepts). */
export const config = fc.record({
  allLinks: links,
  macros: fc.dictionary(key, fc.record({ linkItems: fc.string() }), {
    maxKeys: 2,
  }),
  settings: fc.dictionary(key, json, { maxKeys: 2 }),
});
