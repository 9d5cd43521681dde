/**
 * Generated links for the search property tests: texts made of a few words from `words` (chosen to
 * collide under case folding and to hold the characters patterns treat specially), in every field a
 * search reads.
 */
import fc from 'fast-check';

/** A link whose url, label, description and tags are drawn from `words` (at most `maxWords` a text). */
export function searchLinks(
  words: readonly string[],
  maxWords: number,
): fc.Arbitrary<{
  url: string;
  label: string | undefined;
  description: string | undefined;
  tags: string[];
}> {
  const word = fc.constantFrom(...words);
  const text = fc.array(word, { maxLength: maxWords }).map((w) => w.join(' '));
  return fc.record({
    url: text.map((t) => `https://h/${t}`),
    label: fc.option(text, { nil: undefined }),
    description: fc.option(text, { nil: undefined }),
    tags: fc.array(word, { maxLength: 3 }),
  });
}
