/**
 * The JSON text of a `/search` answer, written from the link texts each search index keeps per version
 * (`IndexedLink.json`) instead of serializing every link again.
 */
import type { SearchOutput } from '@linkconfig/shared';
import type { IndexedLink } from './search-index.js';

/**
 * `JSON.stringify(output)`, for an answer whose `results[i].link` is `entries[i].link`: each link's kept
 * text is used for it.
 */
export function searchAnswerText(
  output: SearchOutput,
  entries: readonly IndexedLink[],
): string {
  const items = output.results.map((result, i) => {
    const link = entries[i]?.json ?? JSON.stringify(result.link);
    return `{"configName":${JSON.stringify(result.configName)},"id":${JSON.stringify(result.id)},"link":${link}}`;
  });
  return `{"results":[${items.join(',')}],"configsSearched":${output.configsSearched},"linksScanned":${output.linksScanned}}`;
}
