import { describe, expect, it } from 'vitest';
import { REST_ROUTES } from '../routes/route-table.js';
import {
  DEFAULT_BODY_LIMIT,
  DEFAULT_INLINE_BODY_LIMIT,
  bodyLimitSet,
  routeBodyLimits,
  trpcBodyKind,
} from './body-limits.js';
import { tooLargeMessage } from './json-body.js';

const route = (id: string) => {
  const found = REST_ROUTES.find((r) => r.id === id);
  if (found === undefined) throw new Error(`no route ${id}`);
  return found;
};

describe('body limits (issue 17, item 7)', () => {
  const limits = bodyLimitSet({});

  it('gives inline bodies a lower default limit than configs to store, and names it', () => {
    expect(DEFAULT_INLINE_BODY_LIMIT).toBeLessThan(DEFAULT_BODY_LIMIT);
    expect(limits.stored.maxBytes).toBe(DEFAULT_BODY_LIMIT);
    expect(limits.inline.maxBytes).toBe(DEFAULT_INLINE_BODY_LIMIT);
    expect(tooLargeMessage(limits.inline)).toBe(
      'the request body is larger than the limit of 1048576 bytes (INLINE_BODY_LIMIT, for bodies that do not store a config)',
    );
    // The stored limit's answer is as it always was.
    expect(tooLargeMessage(limits.stored, ' once decompressed')).toBe(
      'the request body is larger than the limit of 10485760 bytes once decompressed',
    );
  });

  it('never lets the inline limit exceed BODY_LIMIT (then BODY_LIMIT is the one met)', () => {
    const low = bodyLimitSet({ bodyLimit: 1000, inlineBodyLimit: 5000 });
    expect(low.inline).toEqual(low.stored);
    expect(low.inline.maxBytes).toBe(1000);
    expect(low.inline.name).toBeUndefined();
  });

  it('applies the stored limit to PUT /configs/:name only among the REST routes', () => {
    expect(routeBodyLimits(route('configs.put'), limits)).toBe(limits.stored);
    for (const id of [
      'expressions.query',
      'expressions.cherryPick',
      'expressions.check',
    ]) {
      expect(routeBodyLimits(route(id), limits)).toBe(limits.inline);
    }
  });

  it('applies the stored limit to a /trpc body when one of its calls stores a config', () => {
    expect(limits[trpcBodyKind(['configs.put'])]).toBe(limits.stored);
    expect(limits[trpcBodyKind(['expressions.query'])]).toBe(limits.inline);
    expect(limits[trpcBodyKind(['expressions.query', 'configs.put'])]).toBe(
      limits.stored,
    );
    expect(limits[trpcBodyKind([])]).toBe(limits.inline);
  });
});
