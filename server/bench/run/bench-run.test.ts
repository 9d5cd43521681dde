import { describe, expect, it } from 'vitest';
import { firstRequests } from './bench-captures.js';
import { ceilingSequence } from './bench-main.js';
import { OUR_ENV } from './bench-servers.js';
import type {
  BenchRequest,
  RequestSequence,
} from '../sequences/request-sequences.js';

const posts: RequestSequence = {
  size: 10,
  at: (i): BenchRequest => ({
    method: 'POST',
    path: '/query',
    body: `{"n":${i}}`,
  }),
};

describe('ceilingSequence', () => {
  it('sends the same methods and bodies to the routes of the captured answers in turn', () => {
    const s = ceilingSequence({ id: 'query-one', sequence: posts }, 3);
    expect(s.size).toBe(10);
    expect([0, 1, 2, 3, 4].map((i) => s.at(i).path)).toEqual([
      '/query-one/0',
      '/query-one/1',
      '/query-one/2',
      '/query-one/0',
      '/query-one/1',
    ]);
    expect(s.at(4)).toMatchObject({ method: 'POST', body: '{"n":4}' });
  });
});

describe('firstRequests', () => {
  it('takes the start of a sequence, no more than it holds', () => {
    expect(firstRequests(posts, 3).map((r) => r.body)).toEqual([
      '{"n":0}',
      '{"n":1}',
      '{"n":2}',
    ]);
    expect(firstRequests(posts, 50)).toHaveLength(10);
  });
});

describe('OUR_ENV', () => {
  it('starts our server without rate limits or demo data, in production mode', () => {
    expect(OUR_ENV).toMatchObject({
      RATE_LIMIT: 'off',
      SEED: 'none',
      NODE_ENV: 'production',
    });
  });
});
