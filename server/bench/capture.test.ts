import { describe, expect, it } from 'vitest';
import { peek, sameAnswer } from './capture.js';
import type { CapturedResponse } from './ceiling-file.js';

const captured = (status: number, body: string): CapturedResponse => ({
  id: 'x',
  method: 'GET',
  status,
  headers: {},
  body: Buffer.from(body).toString('base64'),
});

describe('peek', () => {
  it('counts results, links of an entry, cherry-picked links and list items', () => {
    expect(peek(captured(200, '{"results":[1,2,3]}'))).toBe(
      '200, 19 bytes, 3 results',
    );
    expect(
      peek(captured(200, '{"config":{"allLinks":{"a":{},"b":{}}},"meta":{}}')),
    ).toMatch(/, 2 keys$/);
    expect(peek(captured(200, '{"allLinks":{"a":{}}}'))).toMatch(/, 1 keys$/);
    expect(peek(captured(200, '["a","b"]'))).toMatch(/, 2 items$/);
  });
  it('counts bytes, not characters', () => {
    expect(peek(captured(200, '["é"]'))).toBe('200, 6 bytes, 1 items');
  });
  it('says when there is no JSON body', () => {
    expect(peek(captured(204, ''))).toBe('204, 0 bytes, no JSON body');
  });
});

describe('sameAnswer', () => {
  it('compares status and JSON, whatever the formatting', () => {
    expect(
      sameAnswer(
        captured(200, '{"a":[1,2]}'),
        captured(200, '{ "a": [1, 2] }'),
      ),
    ).toBe(true);
    expect(
      sameAnswer(captured(200, '{"a":[1,2]}'), captured(200, '{"a":[2,1]}')),
    ).toBe(false);
    expect(sameAnswer(captured(200, '{}'), captured(201, '{}'))).toBe(false);
    expect(sameAnswer(captured(204, ''), captured(204, ''))).toBe(true);
  });
  it("ignores a config entry's timestamps and a search's count of scanned links", () => {
    const entry = (updatedAt: string) =>
      captured(
        200,
        JSON.stringify({ config: { allLinks: {} }, meta: { updatedAt } }),
      );
    expect(sameAnswer(entry('2026-01-01'), entry('2027-01-01'))).toBe(true);
    const search = (linksScanned: number, id = 'l1') =>
      captured(
        200,
        JSON.stringify({ results: [{ id }], configsSearched: 1, linksScanned }),
      );
    expect(sameAnswer(search(3), search(500))).toBe(true);
    expect(sameAnswer(search(3), search(3, 'l2'))).toBe(false);
  });
});
