import { describe, expect, it } from 'vitest';
import { configPlaces, placeMarker } from './config-places.js';

describe('configPlaces', () => {
  it('tells configs in both places from those in one', () => {
    const items = configPlaces({
      listed: ['both', 'here', 'there'],
      local: ['both', 'here'],
      server: ['both', 'there'],
      pending: new Map([['here', 'save']]),
    });
    expect(items).toEqual([
      { name: 'both', local: true, server: true, pending: false },
      { name: 'here', local: true, server: false, pending: true },
      { name: 'there', local: false, server: true, pending: false },
    ]);
  });

  it('keeps the server names known from before when the server does not answer', () => {
    const items = configPlaces({
      listed: ['mine'],
      local: ['mine'],
      server: ['mine', 'remembered'],
      pending: new Map(),
    });
    expect(items.map((item) => item.name)).toEqual(['mine', 'remembered']);
    expect(items[1]).toMatchObject({ local: false, server: true });
  });

  it('leaves out a name whose deletion waits to be sent', () => {
    const items = configPlaces({
      listed: ['kept'],
      local: ['kept'],
      server: ['kept', 'deleted'],
      pending: new Map([['deleted', 'remove']]),
    });
    expect(items.map((item) => item.name)).toEqual(['kept']);
  });

  it('says nothing about the server before it ever answered', () => {
    const [item] = configPlaces({
      listed: ['a'],
      local: ['a'],
      server: null,
      pending: new Map(),
    });
    expect(item?.server).toBeNull();
    expect(item && placeMarker(item, false)).toBeNull();
  });
});

describe('placeMarker', () => {
  const item = { name: 'x', local: false, server: true, pending: false };

  it('marks a config only on the server, and unavailable while offline', () => {
    expect(placeMarker(item, true)?.text).toBe('on the server only');
    expect(placeMarker(item, false)?.text).toBe('not available offline');
  });

  it('marks a config only in this browser', () => {
    const local = { ...item, local: true, server: false };
    expect(placeMarker({ ...local, pending: true }, true)?.text).toBe(
      'not yet on the server',
    );
    expect(placeMarker(local, true)?.text).toBe('only in this browser');
  });

  it('marks unsent changes of a config in both places, and nothing else', () => {
    const both = { ...item, local: true };
    expect(placeMarker({ ...both, pending: true }, true)?.text).toBe(
      'changes not yet sent',
    );
    expect(placeMarker(both, true)).toBeNull();
  });
});
