import { describe, expect, it } from 'vitest';
import { loadSettings } from './settings.js';
import type { Settings } from './settings.js';

const load = (env: Record<string, string>, argv: string[] = []): Settings => {
  const settings = loadSettings(env, argv);
  if (settings === 'help') throw new Error('unexpected help');
  return settings;
};

describe('OUTBOUND_ALLOW and OUTBOUND_CONTACT', () => {
  it('allow nothing and name no contact by default', () => {
    const settings = load({});
    expect(settings.outboundAllow).toBeUndefined();
    expect(settings.outboundContact).toBeUndefined();
  });

  it('read IP:PORT pairs, normalised, from the variable or the flag', () => {
    expect(
      load({ OUTBOUND_ALLOW: '127.0.0.1:8080, [::1]:9000,,2130706433:81' })
        .outboundAllow?.entries,
    ).toEqual(['127.0.0.1:8080', '[::1]:9000', '127.0.0.1:81']);
    expect(
      load({}, ['--outbound-allow', '10.0.0.5:443']).outboundAllow?.allows(
        '10.0.0.5',
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
    [{ OUTBOUND_ALLOW: '10.0.0.0/8:80' }, /OUTBOUND_ALLOW.*is not IP:PORT/],
    [{ OUTBOUND_CONTACT: 'call me' }, /OUTBOUND_CONTACT.*no spaces/],
  ])('refuse %j with a readable message', (env, message) => {
    expect(() => loadSettings(env, [])).toThrow(message);
  });
});
