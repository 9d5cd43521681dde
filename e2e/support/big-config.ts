/** A config with many links, as a site with large link menus would have, and what a filter finds in it. */
import type { Link, LinkConfig } from '@linkconfig/shared';

/** Tags the links are given, a few each. */
export const BIG_TAGS = [
  'nyc',
  'paris',
  'tokyo',
  'london',
  'berlin',
  'rome',
  'news',
  'travel',
  'food',
  'museum',
  'park',
  'music',
  'sport',
  'shop',
  'hotel',
  'cafe',
  'bridge',
  'river',
  'night',
  'kids',
] as const;

/** `count` links `l000…`: labels, URLs, two or three tags each, a description on every fifth. */
export function bigConfig(count = 500): LinkConfig {
  const allLinks: Record<string, Link> = {};
  for (let i = 0; i < count; i++) {
    const id = `l${String(i).padStart(3, '0')}`;
    const tags = [
      BIG_TAGS[i % BIG_TAGS.length]!,
      BIG_TAGS[(i * 7 + 3) % BIG_TAGS.length]!,
      ...(i % 3 === 0 ? [BIG_TAGS[(i * 11 + 5) % BIG_TAGS.length]!] : []),
    ];
    const link: Link = {
      url: `https://example.com/${tags[0]}/${i}`,
      label: `Place ${i} in ${tags[0]}`,
      tags: [...new Set(tags)],
    };
    if (i % 5 === 0) link.description = `Opening hours of venue ${i}`;
    allLinks[id] = link;
  }
  return { allLinks, macros: { city: { linkItems: '.nyc | .paris' } } };
}

/** The ids a filter finds: every word in label, URL, id, description or tags (case ignored). */
export function expectedMatches(config: LinkConfig, text: string): string[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  return Object.entries(config.allLinks)
    .filter(([id, link]) => {
      const hay = [
        link.label ?? '',
        link.url,
        id,
        link.description ?? '',
        (link.tags ?? []).join(' '),
      ]
        .join('\n')
        .toLowerCase();
      return words.every((word) => hay.includes(word));
    })
    .map(([id]) => id);
}
