import { describe, expect, it } from 'vitest';
import type { AccessOutput } from '@linkconfig/shared';
import {
  grantSummary,
  mayPublish,
  mayRead,
  mayWrite,
  publishRefusalOf,
  writeRefusalOf,
} from './key-access.js';

const grant = (over: Partial<AccessOutput>): AccessOutput => ({
  scope: 'write',
  configs: ['site-a/*'],
  anonymousRead: [],
  key: { id: 'k1', label: 'site A editor' },
  ...over,
});

describe('what a key may do', () => {
  it('reads and writes the names its patterns match, and nothing else', () => {
    const g = grant({});
    expect(mayRead(g, 'site-a/menu')).toBe(true);
    expect(mayWrite(g, 'site-a/menu')).toBe(true);
    expect(mayRead(g, 'site-b/menu')).toBe(false);
    expect(mayWrite(g, 'site-b/menu')).toBe(false);
    expect(writeRefusalOf(g, 'site-b/menu')).toContain(
      'this key may not write site-b/menu',
    );
    expect(writeRefusalOf(g, 'site-a/menu')).toBeNull();
  });

  it('a read key writes nothing; anyone reads what ANONYMOUS_READ opens', () => {
    const g = grant({ scope: 'read', anonymousRead: ['public/*'] });
    expect(mayWrite(g, 'site-a/menu')).toBe(false);
    expect(mayRead(g, 'public/links')).toBe(true);
    expect(writeRefusalOf(g, 'site-a/menu')).toContain('may only read');
  });

  it('publishes only with the publish scope (or admin), for the names its patterns match', () => {
    const writer = grant({});
    expect(mayPublish(writer, 'site-a/menu')).toBe(false);
    expect(publishRefusalOf(writer, 'site-a/menu')).toBe(
      'Publishing is off: this key may only read and write site-a/menu; publishing needs a key with the publish scope.',
    );
    const reviewer = grant({ scope: 'publish' });
    expect(mayPublish(reviewer, 'site-a/menu')).toBe(true);
    expect(publishRefusalOf(reviewer, 'site-a/menu')).toBeNull();
    expect(publishRefusalOf(reviewer, 'site-b/menu')).toContain(
      'this key may not publish site-b/menu',
    );
    expect(mayPublish(grant({ scope: 'admin', configs: ['*'] }), 'x')).toBe(
      true,
    );
    expect(publishRefusalOf(grant({ scope: null }), 'x')).toContain(
      'without a key',
    );
  });

  it('says the scope and the patterns', () => {
    expect(grantSummary(grant({}))).toBe(
      'The key “site A editor” may read and write configs named “site-a/*”.',
    );
    expect(
      grantSummary(
        grant({
          scope: 'admin',
          configs: ['*'],
          key: { id: 'a', label: 'ops' },
        }),
      ),
    ).toBe('The key “ops” may read, write and manage keys for every config.');
    expect(
      grantSummary(grant({ configs: ['*'], anonymousRead: ['*'], key: null })),
    ).toContain('This server is open');
    expect(
      grantSummary(grant({ scope: null, configs: [], anonymousRead: [] })),
    ).toContain('shows nothing without a key');
  });
});
