import { KEY_SCOPES } from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import { createAuthenticator } from './auth.js';
import type { AuthSettings, Presented, RequestAuth } from './auth.js';

const NAMES = ['a', 'ab', 'b', 'team-x', 'team-y/z', ''];

/** Everything a caller can learn from an access, as plain data. */
function answers(auth: RequestAuth): unknown {
  return {
    token: auth.token(),
    grant: auth.grant(),
    readView: auth.readView(),
    author: auth.author(),
    clientId: auth.clientId(),
    reads: NAMES.map((name) => auth.canRead(name)),
    writes: NAMES.map((name) => auth.canWrite(name)),
    may: KEY_SCOPES.map((scope) => auth.may(scope)),
  };
}

const SETTINGS: readonly AuthSettings[] = [
  {},
  { apiToken: 'api-secret' },
  { readToken: 'read-secret' },
  { anonymousRead: ['team-*'] },
  { anonymousRead: [] },
  { apiToken: 'api-secret', anonymousRead: ['*'] },
];

const HEADERS = [undefined, '', 'Bearer api-secret', 'Bearer nope', 'Basic x'];

describe('createAuthenticator', () => {
  // Keyless access is built once per kind (open or not) and shared; it must answer exactly what an
  // access built for the request alone answers, whatever came before it on the same authenticator.
  it('answers every request as an access built for it alone would', () => {
    for (const settings of SETTINGS) {
      const shared = createAuthenticator(settings);
      for (const open of [true, false, true, false]) {
        for (const header of HEADERS) {
          const presented: Presented = { open, now: 0 };
          const alone = createAuthenticator(settings)(header, presented);
          expect(
            answers(shared(header, presented)),
            JSON.stringify({ settings, open, header }),
          ).toEqual(answers(alone));
        }
      }
    }
  });
});
