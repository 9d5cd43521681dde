import { describe, expect, it } from 'vitest';
import { REST_ROUTES, apiPathPattern } from './route-table.js';

describe('apiPathPattern (the web page service worker leaves these paths to the network)', () => {
  const api = new RegExp(apiPathPattern());

  it('matches every REST route of the table, with any config name', () => {
    for (const route of REST_ROUTES) {
      expect(api.test(route.path.replace('{name}', 'demo'))).toBe(true);
    }
    expect(api.test('/configs/a%20b')).toBe(true);
    expect(api.test('/expressions/check')).toBe(true);
  });

  it('leaves the page and its assets alone', () => {
    for (const path of ['/', '/index.html', '/assets/index-abc.js', '/sw.js']) {
      expect(api.test(path)).toBe(false);
    }
    expect(api.test('/configs/a/b')).toBe(false);
    expect(api.test('/searching')).toBe(false);
  });

  it('follows the table, not a list of its own', () => {
    const one = REST_ROUTES.filter((r) => r.path === '/search');
    expect(new RegExp(apiPathPattern(one)).test('/query')).toBe(false);
    expect(new RegExp(apiPathPattern(one)).test('/search')).toBe(true);
  });
});
