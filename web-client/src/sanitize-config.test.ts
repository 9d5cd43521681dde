import { describe, expect, it } from 'vitest';
import type { LinkConfig } from '@linkconfig/shared';
import { sanitizeConfig } from './sanitize-config.js';

describe('sanitizeConfig', () => {
  it('neutralises script URLs in url, image, thumbnail and meta keys ending in "url", any case', () => {
    const config = {
      allLinks: {
        x: {
          url: 'javascript:alert(1)',
          image: 'DATA:text/html,x',
          thumbnail: 'https://ok.example/t.png',
          meta: {
            iconUrl: 'vbscript:x',
            HomeURL: ' javascript:y',
            note: 'javascript:z',
          },
        },
      },
    } as LinkConfig;
    expect(sanitizeConfig(config)).toEqual({
      allLinks: {
        x: {
          url: 'about:blank',
          image: 'about:blank',
          thumbnail: 'https://ok.example/t.png',
          meta: {
            iconUrl: 'about:blank',
            HomeURL: 'about:blank',
            note: 'javascript:z',
          },
        },
      },
    });
    expect(config.allLinks['x']?.url).toBe('javascript:alert(1)');
  });

  it('returns the same object when nothing is dangerous', () => {
    const config = {
      allLinks: { a: { url: 'https://a.example', meta: { homeUrl: '/x' } } },
    };
    expect(sanitizeConfig(config)).toBe(config);
  });

  it('keeps a link id such as __proto__ an own key', () => {
    const allLinks = JSON.parse(
      '{"__proto__":{"url":"javascript:x"}}',
    ) as LinkConfig['allLinks'];
    const clean = sanitizeConfig({ allLinks });
    expect(Object.keys(clean.allLinks)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(clean.allLinks)).toBe(Object.prototype);
    expect(
      Object.getOwnPropertyDescriptor(clean.allLinks, '__proto__')?.value,
    ).toEqual({
      url: 'about:blank',
    });
  });
});
