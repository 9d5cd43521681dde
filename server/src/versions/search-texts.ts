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
  // One string built in order; a config's name, the same for a run of results, is written once per run.
  let out = '{"results":[';
  let name: string | undefined;
  let nameJson = '';
  output.results.forEach((result, i) => {
    if (result.configName !== name) {
      name = result.configName;
      nameJson = JSON.stringify(name);
    }
    const link = entries[i]?.json ?? JSON.stringify(result.link);
    out += `${i === 0 ? '' : ','}{"configName":${nameJson},"id":${JSON.stringify(result.id)},"link":${link}}`;
  });
  return `${out}],"configsSearched":${output.configsSearched},"linksScanned":${output.linksScanned}}`;
}
