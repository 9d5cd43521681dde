/**
 * Which addresses the server's outbound requests may reach: a pure function over address text, and the
 * `OUTBOUND_ALLOW` list of exceptions. Parsing and the range tables are ipaddr.js's (IPv4 in dotted,
 * decimal, octal and hex spellings; IPv6 with IPv4-mapped forms): nothing here reads addresses by hand.
 */
import ipaddr from 'ipaddr.js';

/**
 * Why an address is refused: a range of ipaddr.js (`loopback`, `private`, `linkLocal`, `uniqueLocal`,
 * `carrierGradeNat`, `multicast`, `unspecified`, `broadcast`, `reserved`, …), or `metadata` (a cloud
 * provider's instance-metadata address, refused whatever its range), or `ipv4Compatible` (the deprecated
 * `::a.b.c.d` form), or `invalid` (not an address).
 */
export type RefusedRange = string;

/** What {@link classifyAddress} says of one address. */
export type AddressClass =
  | { readonly public: true; readonly address: string }
  | {
      readonly public: false;
      readonly range: RefusedRange;
      readonly address: string;
    };

/**
 * Instance-metadata endpoints of cloud providers. Most already fall in a refused range (link-local,
 * unique-local, CGNAT); Azure's wire server is a public address, so the list is checked first.
 */
const METADATA_ADDRESSES = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle
  '169.254.170.2', // AWS ECS task metadata
  '169.254.169.253', // AWS DNS resolver
  '168.63.129.16', // Azure wire server
  '100.100.100.200', // Alibaba Cloud
  'fd00:ec2::254', // AWS over IPv6
]);

/** The one range of ordinary, routable addresses: everything else is refused. */
const PUBLIC_RANGE = 'unicast';

/**
 * Classifies an address given as text (`93.184.216.34`, `2130706433`, `0x7f.1`, `::ffff:10.0.0.1`,
 * `[fe80::1%eth0]`): public, or refused with the reason. IPv4-mapped and IPv4-compatible IPv6 addresses
 * are judged as the IPv4 address they carry.
 */
export function classifyAddress(text: string): AddressClass {
  const bare = unbracket(text);
  if (!ipaddr.isValid(bare)) {
    return { public: false, range: 'invalid', address: text };
  }
  let parsed = ipaddr.process(bare);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    // `::a.b.c.d` (deprecated, RFC 4291 2.5.5.1): ipaddr.js calls it unicast; it reaches a.b.c.d.
    if (v6.parts.slice(0, 6).every((part) => part === 0) && !isTiny(v6)) {
      const [hi = 0, lo = 0] = v6.parts.slice(6);
      const v4 = new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
      return {
        public: false,
        range: 'ipv4Compatible',
        address: v4.toString(),
      };
    }
    parsed = v6;
  }
  const address = withoutZone(parsed.toString());
  if (METADATA_ADDRESSES.has(address)) {
    return { public: false, range: 'metadata', address };
  }
  const range = parsed.range();
  return range === PUBLIC_RANGE
    ? { public: true, address }
    : { public: false, range, address };
}

/** `::` and `::1` are judged by their own ranges (unspecified, loopback), not as IPv4-compatible. */
function isTiny(v6: ipaddr.IPv6): boolean {
  return v6.parts[6] === 0 && (v6.parts[7] ?? 0) <= 1;
}

function withoutZone(address: string): string {
  const zone = address.indexOf('%');
  return zone === -1 ? address : address.slice(0, zone);
}

/** Whether `host` (a URL's hostname, brackets allowed) is an IP address rather than a name. */
export function isAddressLiteral(host: string): boolean {
  return ipaddr.isValid(unbracket(host));
}

/**
 * Names that always mean this machine (RFC 6761: `localhost` and every name under it), refused by name
 * before anything resolves them, whatever the allowlist says.
 */
export function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * `OUTBOUND_ALLOW`: `IP:PORT` pairs (IPv6 in brackets, `[::1]:8080`) that URLs may name directly even
 * though the address is not public. Only a URL whose host *is* that address and whose port is that port
 * passes; names never resolve into the list.
 */
export class OutboundAllowList {
  readonly #entries: ReadonlySet<string>;

  /** The list as given: each entry normalised (`0x7f.1:80` is `127.0.0.1:80`). */
  readonly entries: readonly string[];

  constructor(entries: readonly string[] = []) {
    const keys = entries.map((entry) => {
      const parsed = parseAllowEntry(entry);
      if (parsed === null) {
        throw new Error(
          `"${entry}" is not IP:PORT (an address, or [IPv6] in brackets, and a port from 1 to 65535)`,
        );
      }
      return parsed;
    });
    this.#entries = new Set(keys);
    this.entries = [...this.#entries];
  }

  /** Whether a URL naming `host` (an address literal) and `port` is allowed by the list. */
  allows(host: string, port: number): boolean {
    if (this.#entries.size === 0 || !isAddressLiteral(host)) return false;
    return this.#entries.has(allowKey(normalizeAddress(host), port));
  }
}

/** Reads one `IP:PORT` entry into its normalised key, or `null`. */
function parseAllowEntry(entry: string): string | null {
  const match = /^\s*(\[[^\]]+\]|[^:[\]\s]+):(\d{1,5})\s*$/.exec(entry);
  if (match === null) return null;
  const [, host = '', portText = ''] = match;
  const port = Number(portText);
  if (!isAddressLiteral(host) || port < 1 || port > 65_535) return null;
  return allowKey(normalizeAddress(host), port);
}

/** One spelling per address: IPv4-mapped IPv6 as IPv4, IPv6 compressed, no brackets or zone. */
export function normalizeAddress(text: string): string {
  return withoutZone(ipaddr.process(unbracket(text)).toString());
}

/** An IPv6 literal of a URL without its brackets. */
function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** `IP:PORT`, an IPv6 address in brackets. */
function allowKey(address: string, port: number): string {
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
}
