/**
 * The JSON text of a `/search` answer, written from the link texts each search index keeps per version
 * (`IndexedLink.json`) instead of serializing every link again.
 */
import type { SearchOutput } from '@linkconfig/shared';
import type { IndexedLink } from './search-index.js';

/**
 * Texts `JSON.stringify` writes unchanged between quotes: no quote, backslash, control character or
 * UTF-16 surrogate (a lone one is escaped; a pair is left to `JSON.stringify` as well).
 */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/**
 * `JSON.stringify(text)`: a plain text (config names and link ids nearly always are) is quoted as it is,
 * which costs far less than a call of `JSON.stringify` per string (two per result of a search answer).
 */
export function jsonString(text: string): string {
  return PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
}

/**
 * `JSON.stringify(output)`, for an answer whose `results[i].link` is `entries[i].link`: each link's kept
 * text is used for it. Written as one string in one pass; a config name is quoted once per run of results
 * from the same config (they come config by config).
 */
export function searchAnswerText(
  output: SearchOutput,
  entries: readonly IndexedLink[],
): string {
  const { results } = output;
  let text = '{"results":[';
  let name: string | undefined;
  let quotedName = '';
  let i = 0;
  for (const result of results) {
    if (result.configName !== name) {
      name = result.configName;
      quotedName = jsonString(name);
    }
    const link = entries[i]?.json ?? JSON.stringify(result.link);
    text += `${i === 0 ? '' : ','}{"configName":${quotedName},"id":${jsonString(result.id)},"link":${link}}`;
    i++;
  }
  return `${text}],"configsSearched":${output.configsSearched},"linksScanned":${output.linksScanned}}`;
}
