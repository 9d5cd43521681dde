import { describe, expect, it } from 'vitest';
import { ChangeMessageSchema, ChangesInputSchema } from './changes.js';

describe('ChangesInputSchema', () => {
  it('accepts no input, a null id and a decimal id', () => {
    expect(ChangesInputSchema.parse(undefined)).toBeUndefined();
    expect(ChangesInputSchema.parse({ lastEventId: null })).toEqual({
      lastEventId: null,
    });
    expect(ChangesInputSchema.parse({ lastEventId: '42' })?.lastEventId).toBe(
      '42',
    );
  });
  it.each(['', '-1', '1.5', 'abc', '1'.repeat(16)])('rejects id %j', (id) => {
    expect(ChangesInputSchema.safeParse({ lastEventId: id }).success).toBe(
      false,
    );
  });
});

describe('ChangeMessageSchema', () => {
  it('tells a change from a reset', () => {
    expect(
      ChangeMessageSchema.parse({
        type: 'change',
        name: 'n',
        op: 'delete',
        etag: null,
        updatedAt: '2026-01-01T00:00:00.000Z',
      }).type,
    ).toBe('change');
    expect(ChangeMessageSchema.parse({ type: 'reset' })).toEqual({
      type: 'reset',
    });
    expect(
      ChangeMessageSchema.safeParse({ type: 'change', name: 'n', op: 'move' })
        .success,
    ).toBe(false);
  });
});
