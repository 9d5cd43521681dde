import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeUrl } from './url-identity.js';
import { findDuplicates, linksWithUrl } from './find-duplicates.js';

describe('the duplicate URL rule', () => {
  it('ignores scheme, www., default ports, trailing slashes, tracking parameters and the fragment', () => {
    const one = normalizeUrl('https://example.com/a');
    for (const same of [
      'http://example.com/a',
      'https://www.example.com/a',
      'https://EXAMPLE.com:443/a/',
      'http://example.com:80/a//',
      'https://example.com/a?utm_source=news&utm_medium=mail',
      'https://example.com/a/?fbclid=x#section',
      'https://example.com/a?gclid=1',
      '  https://example.com/a  ',
    ]) {
      expect(normalizeUrl(same), same).toBe(one);
    }
  });

  it('keeps what makes another page: path case, other parameters, ports, other schemes', () => {
    const one = normalizeUrl('https://example.com/a');
    for (const other of [
      'https://example.com/A',
      'https://example.com/a?id=1',
      'https://example.com:8080/a',
      'https://example.org/a',
      'https://sub.example.com/a',
      'ftp://example.com/a',
    ]) {
      expect(normalizeUrl(other), other).not.toBe(one);
    }
    expect(normalizeUrl('https://e.com/?b=1&utm_x=2&a=3')).toBe(
      'https://e.com/?b=1&a=3',
    );
  });

  it('keeps text that is no absolute URL as trimmed text', () => {
    expect(normalizeUrl(' /local/page ')).toBe('/local/page');
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(
        fc.webUrl({ withQueryParameters: true, withFragments: true }),
        (url) => normalizeUrl(normalizeUrl(url)) === normalizeUrl(url),
      ),
      { numRuns: 100 },
    );
  }, 60_000);

  it('never makes one of two different hosts', () => {
    fc.assert(
      fc.property(fc.domain(), fc.domain(), fc.webPath(), (a, b, path) => {
        const hostOf = (d: string) =>
          new URL(`https://${d}`).hostname.replace(/^(www\.)+/, '');
        fc.pre(
          hostOf(a) !== hostOf(b) &&
            hostOf(a).includes('.') &&
            hostOf(b).includes('.'),
        );
        return (
          normalizeUrl(`https://${a}${path}`) !==
          normalizeUrl(`https://${b}${path}`)
        );
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('never makes one of two different paths (trailing slashes aside)', () => {
    fc.assert(
      fc.property(fc.domain(), fc.webPath(), fc.webPath(), (host, p, q) => {
        const pathOf = (path: string) =>
          new URL(`https://${host}${path}`).pathname.replace(/\/+$/, '');
        fc.pre(pathOf(p) !== pathOf(q));
        return (
          normalizeUrl(`https://${host}${p}`) !==
          normalizeUrl(`https://${host}${q}`)
        );
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('finds duplicates within and across configs, and warns for a typed URL', () => {
    const first = {
      allLinks: {
        a: { url: 'https://example.com/page/' },
        b: { url: 'https://example.com/page?utm_source=x' },
        c: { url: 'https://example.com/other' },
      },
    };
    const second = { allLinks: { z: { url: 'http://www.example.com/page' } } };
    const groups = findDuplicates([
      { name: 'one', config: first },
      { name: 'two', config: second },
    ]);
    expect(groups).toHaveLength(1);
    expect(groups[0]?.members.map((m) => `${m.config}/${m.id}`)).toEqual([
      'one/a',
      'one/b',
      'two/z',
    ]);
    expect(linksWithUrl(first, 'example.com/page')).toEqual([]);
    expect(linksWithUrl(first, 'https://example.com/page#x', 'a')).toEqual([
      'b',
    ]);
  });
});
