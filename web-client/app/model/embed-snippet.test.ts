import { describe, expect, it } from 'vitest';
import { embedSnippet } from './embed-snippet.js';

describe('the embed snippet', () => {
  it('loads embed.js from the server and names the config', () => {
    expect(embedSnippet('https://links.example', 'site-a/menu')).toBe(
      '<script src="https://links.example/published/embed.js" data-config="site-a/menu" defer></script>',
    );
  });

  it('escapes what would end the attribute', () => {
    expect(embedSnippet('http://127.0.0.1:3000', 'a"b&c')).toContain(
      'data-config="a&quot;b&amp;c"',
    );
  });
});
