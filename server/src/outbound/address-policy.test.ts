import { Socket } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  classifyAddress,
  isLocalhostName,
  OutboundAllowList,
} from './address-policy.js';
import { guardedConnector } from './guarded-connector.js';

/** Every refused range, at its edges and in its other spellings; classified only, never connected to. */
const REFUSED: readonly (readonly [string, string])[] = [
  // loopback
  ['127.0.0.1', 'loopback'],
  ['127.0.0.2', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  // IPv4 spellings of loopback: decimal, octal, hex, short forms
  ['2130706433', 'loopback'],
  ['2130706434', 'loopback'],
  ['0177.0.0.1', 'loopback'],
  ['017700000001', 'loopback'],
  ['0x7f.0.0.1', 'loopback'],
  ['0x7f.1', 'loopback'],
  ['0x7f000001', 'loopback'],
  ['127.1', 'loopback'],
  // private (RFC 1918)
  ['10.0.0.0', 'private'],
  ['10.255.255.255', 'private'],
  ['012.1.2.3', 'private'],
  ['167772161', 'private'],
  ['172.16.0.0', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.0.1', 'private'],
  ['0xc0.0xa8.1.1', 'private'],
  // link-local
  ['169.254.0.1', 'linkLocal'],
  ['169.254.255.255', 'linkLocal'],
  ['fe80::1', 'linkLocal'],
  ['fe80::1%eth0', 'linkLocal'],
  ['febf:ffff::1', 'linkLocal'],
  // unique-local
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456::1', 'uniqueLocal'],
  // carrier-grade NAT
  ['100.64.0.0', 'carrierGradeNat'],
  ['100.127.255.255', 'carrierGradeNat'],
  // multicast
  ['224.0.0.1', 'multicast'],
  ['239.255.255.255', 'multicast'],
  ['ff02::1', 'multicast'],
  ['ff05::1:3', 'multicast'],
  // metadata endpoints, whatever their range
  ['169.254.169.254', 'metadata'],
  ['2852039166', 'metadata'],
  ['0xa9.0xfe.0xa9.0xfe', 'metadata'],
  ['169.254.170.2', 'metadata'],
  ['168.63.129.16', 'metadata'],
  ['100.100.100.200', 'metadata'],
  ['fd00:ec2::254', 'metadata'],
  ['::ffff:169.254.169.254', 'metadata'],
  // unspecified and broadcast
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['::', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  // IPv4-mapped IPv6: judged as the IPv4 address inside
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['[::ffff:10.0.0.1]', 'private'],
  ['::ffff:a00:1', 'private'],
  ['::ffff:192.168.1.1', 'private'],
  ['::ffff:100.64.0.1', 'carrierGradeNat'],
  // IPv4-compatible (deprecated) and translation prefixes that embed IPv4
  ['::7f00:1', 'ipv4Compatible'],
  ['::a00:1', 'ipv4Compatible'],
  ['64:ff9b::7f00:1', 'rfc6052'],
  ['::ffff:0:7f00:1', 'rfc6145'],
  ['2002:7f00:1::', '6to4'],
  ['2001::1', 'teredo'],
  // reserved, documentation, benchmarking
  ['192.0.2.1', 'reserved'],
  ['198.51.100.1', 'reserved'],
  ['203.0.113.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['2001:2::1', 'benchmarking'],
  ['fec0::1', 'deprecatedSiteLocal'],
  // not addresses
  ['localhost', 'invalid'],
  ['example.com', 'invalid'],
  ['08.1.1.1', 'invalid'],
  ['', 'invalid'],
];

const PUBLIC: readonly string[] = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '172.15.255.255',
  '172.32.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '169.253.255.255',
  '169.255.0.0',
  '126.255.255.255',
  '128.0.0.0',
  '11.0.0.0',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '[2a00:1450:4001::200e]',
  '::ffff:8.8.8.8',
];

describe('classifyAddress', () => {
  it.each(REFUSED)('refuses %s (%s)', (address, range) => {
    const verdict = classifyAddress(address);
    expect(verdict.public).toBe(false);
    expect(verdict.public ? undefined : verdict.range).toBe(range);
  });

  // The same table through the outbound agent's connector: each address is refused by its class before
  // a socket opener or a resolver is called, so no test (and no request) ever reaches it. Any real
  // socket connect in the meantime is caught as well, and never made.
  it.each(REFUSED.filter(([, range]) => range !== 'invalid'))(
    'refuses %s at the connector without opening a socket',
    async (address, range) => {
      const realConnects = vi
        .spyOn(Socket.prototype, 'connect')
        .mockImplementation(() => {
          throw new Error('a real socket was connected');
        });
      let opened = 0;
      let resolved = 0;
      const connector = guardedConnector({
        allow: new OutboundAllowList(),
        connectTimeoutMs: 1_000,
        base: (_target, callback) => {
          opened += 1;
          callback(new Error('a socket was opened'), null);
        },
        resolve: (_name, _options, callback) => {
          resolved += 1;
          callback(new Error('a name was resolved'), []);
        },
      });
      const error = await new Promise<unknown>((done) => {
        connector(
          { hostname: address, port: '80', protocol: 'http:' } as Parameters<
            typeof connector
          >[0],
          (...args: unknown[]) => done(args[0]),
        );
      });
      const connects = realConnects.mock.calls.length;
      realConnects.mockRestore();
      expect(error).toMatchObject({ kind: 'refused', reason: range });
      expect(opened).toBe(0);
      expect(resolved).toBe(0);
      expect(connects).toBe(0);
    },
  );

  it.each(PUBLIC)('lets %s through', (address) => {
    expect(classifyAddress(address).public).toBe(true);
  });

  it('judges an IPv4 address the same in every spelling', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (n) => {
        const octets = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
        const dotted = octets.join('.');
        const expected = classifyAddress(dotted);
        const spellings = [
          String(n),
          `0x${n.toString(16)}`,
          octets.map((o) => `0${o.toString(8)}`).join('.'),
          octets.map((o) => `0x${o.toString(16)}`).join('.'),
          `::ffff:${dotted}`,
        ];
        for (const spelling of spellings) {
          const verdict = classifyAddress(spelling);
          expect(verdict.public).toBe(expected.public);
          expect(verdict.address).toBe(dotted);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses every address of the private ranges, not only their edges', () => {
    const inRange = (base: number, bits: number) =>
      fc.integer({ min: 0, max: 2 ** (32 - bits) - 1 }).map((offset) => {
        const n = (base + offset) >>> 0;
        return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
      });
    const ip = (a: number, b: number) => ((a << 24) | (b << 16)) >>> 0;
    fc.assert(
      fc.property(
        fc.oneof(
          inRange(ip(10, 0), 8),
          inRange(ip(172, 16), 12),
          inRange(ip(192, 168), 16),
          inRange(ip(127, 0), 8),
          inRange(ip(169, 254), 16),
          inRange(ip(100, 64), 10),
          inRange(ip(224, 0), 4),
        ),
        (address) => {
          expect(classifyAddress(address).public).toBe(false);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('isLocalhostName', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'localhost.',
    'api.localhost',
    'a.b.localhost.',
  ])('%s names this machine', (name) =>
    expect(isLocalhostName(name)).toBe(true),
  );
  it.each([
    'localhost.example.com',
    'notlocalhost',
    'example.com',
    '127.0.0.1',
  ])('%s does not', (name) => expect(isLocalhostName(name)).toBe(false));
});

describe('OutboundAllowList', () => {
  it('allows exactly the listed address and port, in any spelling of the address', () => {
    const allow = new OutboundAllowList(['127.0.0.1:8080', '[::1]:9000']);
    expect(allow.allows('127.0.0.1', 8080)).toBe(true);
    expect(allow.allows('2130706433', 8080)).toBe(true);
    expect(allow.allows('::ffff:127.0.0.1', 8080)).toBe(true);
    expect(allow.allows('[::1]', 9000)).toBe(true);
    expect(allow.allows('::1', 9000)).toBe(true);
    expect(allow.allows('127.0.0.1', 8081)).toBe(false);
    expect(allow.allows('127.0.0.2', 8080)).toBe(false);
    expect(allow.allows('::1', 8080)).toBe(false);
    // Names never match, even one that would resolve to a listed address.
    expect(allow.allows('localhost', 8080)).toBe(false);
  });

  it('normalises its entries', () => {
    expect(
      new OutboundAllowList(['0x7f.1:80', ' [::ffff:a00:1]:443 ']).entries,
    ).toEqual(['127.0.0.1:80', '10.0.0.1:443']);
  });

  it.each([
    '127.0.0.1',
    'localhost:80',
    '127.0.0.1:0',
    '127.0.0.1:65536',
    '::1:80',
    '10.0.0.0/8:80',
    '',
  ])('refuses the entry %j', (entry) =>
    expect(() => new OutboundAllowList([entry])).toThrow(/IP:PORT/),
  );

  it('allows nothing when empty', () => {
    expect(new OutboundAllowList().allows('127.0.0.1', 80)).toBe(false);
  });
});
