/**
 * The JSON text of `/query` answers, written from texts kept per stored version: each prepared link's
 * text as a result link (`{"id":…,…}`, exactly what `JSON.stringify` writes for it) is built once per
 * version and weighed with it (so it counts against `CACHE_BYTES` and goes when the version goes). An
 * answer is then a join of kept texts instead of a walk over every field of every link it selects.
 */
import type { PreparedConfig, PreparedLink } from '@linkconfig/shared';
import { stringWeight } from '../cache/weights.js';
import type { ConfigVersion } from './config-version.js';

/** One link's text, with the prepared link it was written from. */
interface LinkText {
  readonly link: PreparedLink;
  readonly text: string;
}

const RESULT_TEXTS = Symbol('result link JSON texts');

/** Map entry and record overhead per link, bytes (beyond the text itself). */
const PER_LINK = 96;

/** The result texts of every link of `version`'s prepared form, by id (built once per version). */
export function resultTexts(
  version: ConfigVersion,
): ReadonlyMap<string, LinkText> {
  return version.derive(RESULT_TEXTS, () => {
    const texts = new Map<string, LinkText>();
    let weight = 0;
    for (const [id, link] of version.prepared.links) {
      const text = JSON.stringify({ id, ...link });
      texts.set(id, { link, text });
      weight += stringWeight(text) + PER_LINK;
    }
    return { value: texts, weight };
  });
}

/**
 * `JSON.stringify({ results: toResolvedLinks(prepared, ids) })` for ids selected in `prepared`, a config
 * prepared from `versions` (one, or several merged, last wins): a link's kept text is used when the
 * prepared config holds the very link the text was written from; any other link is written as usual.
 */
export function queryAnswerText(
  prepared: PreparedConfig,
  versions: readonly ConfigVersion[],
  ids: readonly string[],
): string {
  const tables = versions.map(resultTexts);
  const parts: string[] = [];
  for (const id of ids) {
    const link = prepared.links.get(id);
    // As toResolvedLinks: an id without a link is no result.
    if (link === undefined) continue;
    let text: string | undefined;
    for (let i = tables.length - 1; i >= 0 && text === undefined; i--) {
      const kept = tables[i]?.get(id);
      if (kept !== undefined && kept.link === link) text = kept.text;
    }
    parts.push(text ?? JSON.stringify({ id, ...link }));
  }
  return `{"results":[${parts.join(',')}]}`;
}
