import type { SearchOutput } from '@linkconfig/shared';
import { indexedLinkJson } from '../../versions/search-index.js';

/**
 * The JSON text of a `/search` answer, exactly what `JSON.stringify(output)` gives, built from the link
 * texts each search index made once per version instead of serializing every link again.
 */
export function searchOutputJson(output: SearchOutput): string {
  const items = output.results.map((result) => {
    const link = indexedLinkJson(result.link) ?? JSON.stringify(result.link);
    return `{"configName":${JSON.stringify(result.configName)},"id":${JSON.stringify(result.id)},"link":${link}}`;
  });
  return `{"results":[${items.join(',')}],"configsSearched":${output.configsSearched},"linksScanned":${output.linksScanned}}`;
}
