import { describe, expect, it } from 'vitest';
import { loadSettings } from './settings.js';
import type { Settings } from './settings.js';

const load = (env: Record<string, string>, argv: string[] = []): Settings => {
  const settings = loadSettings(env, argv);
  if (settings === 'help') throw new Error('unexpected help');
  return settings;
};

describe('LINK_CHECK, LINK_CHECK_EVERY and LINK_CHECK_CONFIRM', () => {
  it('are off, a week and a day by default, and read durations', () => {
    expect(load({})).toMatchObject({
      linkCheck: false,
      linkCheckEvery: 7 * 86_400_000,
      linkCheckConfirm: 86_400_000,
    });
    expect(
      load({ LINK_CHECK: 'on', LINK_CHECK_EVERY: '2d' }, [
        '--link-check-confirm',
        '12h',
      ]),
    ).toMatchObject({
      linkCheck: true,
      linkCheckEvery: 2 * 86_400_000,
      linkCheckConfirm: 12 * 3_600_000,
    });
  });
});

describe('OUTBOUND_ALLOW and OUTBOUND_CONTACT', () => {
  it('allow nothing and name no contact by default', () => {
    const settings = load({});
    expect(settings.outboundAllow).toBeUndefined();
    expect(settings.outboundContact).toBeUndefined();
  });

  // Settings are parsed and the allow-list looked up here; the addresses are loopback ones and none is
  // contacted.
  it('read IP:PORT pairs, normalised, from the variable or the flag', () => {
    expect(
      load({ OUTBOUND_ALLOW: '127.0.0.1:8080, [::1]:9000,,2130706433:81' })
        .outboundAllow?.entries,
    ).toEqual(['127.0.0.1:8080', '[::1]:9000', '127.0.0.1:81']);
    expect(
      load({}, ['--outbound-allow', '127.0.0.5:443']).outboundAllow?.allows(
        '127.0.0.5',
        443,
      ),
    ).toBe(true);
    expect(
      load({ OUTBOUND_CONTACT: 'mailto:ops@example.org' }).outboundContact,
    ).toBe('mailto:ops@example.org');
  });

  it.each([
    [
      { OUTBOUND_ALLOW: 'localhost:8080' },
      /OUTBOUND_ALLOW \(--outbound-allow\): "localhost:8080" is not IP:PORT/,
    ],
    [{ OUTBOUND_ALLOW: '127.0.0.1' }, /OUTBOUND_ALLOW.*is not IP:PORT/],
    [{ OUTBOUND_ALLOW: '127.0.0.0/8:80' }, /OUTBOUND_ALLOW.*is not IP:PORT/],
    [{ OUTBOUND_CONTACT: 'call me' }, /OUTBOUND_CONTACT.*no spaces/],
    [
      { LINK_CHECK: 'sometimes' },
      /LINK_CHECK \(--link-check\): must be on or off/,
    ],
    [{ LINK_CHECK_EVERY: '10m' }, /LINK_CHECK_EVERY.*at least 1h/],
    [{ LINK_CHECK_CONFIRM: '5s' }, /LINK_CHECK_CONFIRM.*at least 1m/],
  ])('refuse %j with a readable message', (env, message) => {
    expect(() => loadSettings(env, [])).toThrow(message);
  });
});
