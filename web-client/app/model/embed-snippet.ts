/**
 * The snippet a site adds after Alap's script to show the published menu of config `name` from the
 * server at `origin` (docs/publishing.md, Embed). The name is an attribute value: `&` and `"` escaped.
 */
export function embedSnippet(origin: string, name: string): string {
  const attribute = name.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
  return `<script src="${origin}/published/embed.js" data-config="${attribute}" defer></script>`;
}
