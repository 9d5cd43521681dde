import { describe, expect, it, vi } from 'vitest';
import { ACCESS } from '@linkconfig/web-client';
import { initialState } from './state.js';
import type { AppState } from './state.js';
import { statusModel, waitedFor, writeRefusal } from './status-model.js';

const NOW = Date.parse('2026-01-01T12:00:00Z');

/** A page that is online, connected, with live updates and nothing waiting. */
function connected(): AppState {
  // The initial state reads `navigator.onLine`, which Node may not have.
  vi.stubGlobal('navigator', { onLine: true });
  const state = initialState();
  vi.unstubAllGlobals();
  state.online = true;
  state.reachable = true;
  state.access = { read: ACCESS.ok, write: ACCESS.ok };
  state.hybrid = { ...state.hybrid, live: 'connected', remoteReachable: true };
  return state;
}

function pending(state: AppState, since: string): AppState {
  state.hybrid = {
    ...state.hybrid,
    pending: 1,
    names: { a: { pending: { op: 'save', since } } },
  };
  return state;
}

describe('statusModel', () => {
  it('all well: green, everything on the server, live', () => {
    const model = statusModel(connected(), NOW);
    expect(model.tone).toBe('ok');
    expect(model.pending.text).toBe('All changes are on the server.');
    expect(model.live.state).toBe('connected');
  });

  it('with unsaved edits open, the header does not say every change is on the server', () => {
    const state = connected();
    state.open = {
      name: 'home',
      draft: { allLinks: {} },
      dirty: true,
      settingsText: '{}',
      settingsProblem: null,
      saveProblem: null,
      remote: null,
      incoming: null,
      targetLinkId: null,
    };
    const model = statusModel(state, NOW);
    expect(model.pending.text).not.toMatch(/All changes are on the server/);
    expect(model.pending.text).toBe(
      'Everything saved is on the server; “home” has unsaved edits.',
    );
    state.open.dirty = false;
    expect(statusModel(state, NOW).pending.text).toBe(
      'All changes are on the server.',
    );
  });

  it('offline: amber, no claim of live updates or of everything on the server', () => {
    const state = connected();
    state.online = false;
    const model = statusModel(state, NOW);
    expect(model.tone).toBe('warn');
    expect(model.live.state).toBe('paused');
    expect(model.pending.text).toBe('Nothing waits to be sent.');
  });

  it('a waiting change says how long the oldest has waited', () => {
    const state = pending(connected(), '2026-01-01T11:57:00Z');
    const model = statusModel(state, NOW);
    expect(model.tone).toBe('warn');
    expect(model.pending.text).toBe('1 change waits to be sent to the server.');
    expect(model.pending.age).toBe('the oldest for 3 min');
  });

  it('a conflict: red, and not "all changes are on the server"', () => {
    const state = connected();
    state.hybrid = { ...state.hybrid, conflicts: 1 };
    const model = statusModel(state, NOW);
    expect(model.tone).toBe('bad');
    expect(model.pending.text).not.toContain('All changes');
  });

  it('locked out: red, live updates paused', () => {
    const state = connected();
    state.access = { read: ACCESS.needsToken, write: ACCESS.unknown };
    const model = statusModel(state, NOW);
    expect(model.tone).toBe('bad');
    expect(model.server.text).toBe('The server needs a token.');
    expect(model.live.state).toBe('paused');
    expect(model.pending.text).toBe('Nothing waits to be sent.');
  });

  it('read-only: red, from the refusal or remembered until a write succeeds', () => {
    const refused = connected();
    refused.access = { read: ACCESS.ok, write: ACCESS.readOnly };
    expect(statusModel(refused, NOW)).toMatchObject({
      tone: 'bad',
      readOnly: true,
    });
    const remembered = connected();
    remembered.access = { read: ACCESS.ok, write: ACCESS.unknown };
    remembered.readOnlyRemembered = true;
    expect(statusModel(remembered, NOW).readOnly).toBe(true);
    remembered.access = { read: ACCESS.ok, write: ACCESS.ok };
    expect(statusModel(remembered, NOW).readOnly).toBe(false);
  });
});

describe('waitedFor', () => {
  it('says the wait in minutes or hours', () => {
    expect(waitedFor(5_000)).toBe('the oldest for under a minute');
    expect(waitedFor(61_000)).toBe('the oldest for 1 min');
    expect(waitedFor(3 * 3_600_000 + 5)).toBe('the oldest for 3 h');
  });
});

describe('editing per config name, from what the key may do', () => {
  it('is off where the key may not write, with the reason, and on where it may', () => {
    const state = connected();
    expect(writeRefusal(state, 'site-b/menu')).toBeNull();
    state.grant = {
      scope: 'write',
      configs: ['site-a/*'],
      anonymousRead: ['public/*'],
      key: { id: 'k1', label: 'site A editor' },
    };
    expect(writeRefusal(state, 'site-a/menu')).toBeNull();
    expect(writeRefusal(state, 'public/links')).toContain(
      'this key may not write public/links',
    );
    expect(statusModel(state, NOW).readOnly).toBe(false);
  });

  it('a read key is read-only everywhere, before any refusal', () => {
    const state = connected();
    state.grant = {
      scope: 'read',
      configs: ['*'],
      anonymousRead: [],
      key: { id: 'k2', label: 'reader' },
    };
    expect(writeRefusal(state, 'demo')).toContain(
      'this key may not write demo',
    );
    expect(statusModel(state, NOW)).toMatchObject({
      readOnly: true,
      tone: 'bad',
    });
  });
});
