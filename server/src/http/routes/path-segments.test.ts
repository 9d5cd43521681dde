import { describe, expect, it } from 'vitest';
import {
  decodeSegment,
  nameInPath,
  pathSegments,
  rawPath,
} from './path-segments.js';

/** What the URL parser makes of a URL's path: the answer `rawPath` must always give. */
const parsed = (url: string) => new URL(url).pathname;

/** A small seeded generator (xorshift), so the random cases are the same on every run. */
function generator(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

describe('rawPath', () => {
  it.each([
    'http://localhost/configs/site%2Fmenu',
    'http://localhost/configs/a%25b?links=healthy',
    'http://localhost/configs/bench-001#part',
    'http://127.0.0.1:8080/configs/a.b/revisions/3',
    'http://user:pw@host/configs/x',
    'http://localhost/configs/./x',
    'http://localhost/configs/../x',
    'http://localhost/configs/%2e%2E',
    'http://localhost/configs/.%2e/x',
    'http://localhost/configs/%2E',
    'http://localhost/configs/a b',
    'http://localhost/configs/é',
    'http://localhost/configs/a\\b',
    'http://local\\host/configs/x',
    'http:///configs/x',
    'http://localhost?x=/configs',
    'http://localhost',
    'http://localhost/configs/{x}|^`"<>',
    'http://localhost/configs/a\tb',
    'HTTP://LOCALHOST/Configs/X',
    'foo://host/a/../b',
  ])('reads %s as the URL parser does', (url) => {
    expect(rawPath(url)).toBe(parsed(url));
    expect(pathSegments(url)).toEqual(parsed(url).split('/'));
  });

  it('agrees with the URL parser on random paths of awkward characters', () => {
    const random = generator(0x5eed);
    const alphabet = ['a', 'Z', '0', '.', '/', '%', '2', 'e', 'E', 'f', '?'];
    alphabet.push('#', '\\', ' ', '-', '~', '@', ':', 'é', '\t', '"', '|');
    let checked = 0;
    for (let n = 0; n < 20_000; n++) {
      const length = 1 + Math.floor(random() * 12);
      let path = '/';
      for (let i = 0; i < length; i++)
        path += alphabet[Math.floor(random() * alphabet.length)];
      const url = `http://localhost:3000${path}`;
      expect(rawPath(url), url).toBe(parsed(url));
      checked++;
    }
    expect(checked).toBe(20_000);
  });
});

describe('decoding a name segment', () => {
  it('decodes exactly as decodeURIComponent, with or without escapes', () => {
    const random = generator(0xd0c0de);
    const alphabet = ['a', '%', '2', 'F', '5', 'C', '3', 'A', 'é', '-', '.'];
    for (let n = 0; n < 5_000; n++) {
      let raw = '';
      const length = 1 + Math.floor(random() * 10);
      for (let i = 0; i < length; i++)
        raw += alphabet[Math.floor(random() * alphabet.length)];
      let decoded: string | undefined;
      try {
        decoded = decodeURIComponent(raw);
      } catch {
        decoded = undefined;
      }
      // The access check reads a malformed segment as it is; the input check refuses it with 400.
      expect(nameInPath(['', 'configs', raw], 2), raw).toBe(decoded ?? raw);
      if (decoded === undefined) {
        expect(() => decodeSegment(raw, 'name'), raw).toThrow(
          /not valid percent-encoding/,
        );
      } else {
        expect(decodeSegment(raw, 'name'), raw).toBe(decoded);
      }
    }
  });
});
