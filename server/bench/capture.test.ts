import { describe, expect, it } from 'vitest';
import { peek } from './capture.js';
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
