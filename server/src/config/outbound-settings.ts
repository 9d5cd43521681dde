/**
 * Settings of the server's outbound requests (`outbound/`): which non-public `IP:PORT` pairs they may
 * reach, and the contact named in their `User-Agent`. Spread into the one settings schema.
 */
import { z } from 'zod';
import { OutboundAllowList } from '../outbound/address-policy.js';

/**
 * `OUTBOUND_ALLOW`: comma-separated `IP:PORT` pairs (`127.0.0.1:8080,[::1]:9000`) that outbound requests
 * may reach although the address is loopback or private; for tests and intranet receivers.
 */
const outboundAllow = z.string().transform((text, ctx) => {
  try {
    return new OutboundAllowList(
      text
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ''),
    );
  } catch (error) {
    ctx.addIssue({
      code: 'custom',
      message: error instanceof Error ? error.message : String(error),
    });
    return z.NEVER;
  }
});

/** `OUTBOUND_CONTACT`: a URL or e-mail address put in the `User-Agent`, for site owners to reach you. */
const outboundContact = z
  .string()
  .trim()
  .max(200)
  .regex(/^[\x21-\x7e]+$/, {
    error: 'must be a URL or an e-mail address (no spaces)',
  });

/** The fields of the settings schema. */
export const OUTBOUND_SETTINGS = {
  outboundAllow: outboundAllow.optional(),
  outboundContact: outboundContact.optional(),
};

/** Their environment variables and flags. */
export const OUTBOUND_SOURCES = {
  outboundAllow: ['OUTBOUND_ALLOW', 'outbound-allow'],
  outboundContact: ['OUTBOUND_CONTACT', 'outbound-contact'],
} as const;
