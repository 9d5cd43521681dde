/**
 * The guard at the socket: undici's connector, wrapped so that every connection of the outbound agent is
 * checked three times: the URL's host before anything (a `localhost` name, an address literal outside the
 * allowlist), every address a name resolves to (in the lookup that the connection itself uses, so a name
 * cannot answer one address to a check and another to the connection: DNS rebinding), and the address
 * the socket is actually connected to (whatever path led there).
 */
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAllOptions } from 'node:dns';
import type { LookupFunction, Socket } from 'node:net';
import { buildConnector } from 'undici';
import {
  classifyAddress,
  isAddressLiteral,
  isLocalhostName,
  normalizeAddress,
} from './address-policy.js';
import type { OutboundAllowList } from './address-policy.js';
import { refused } from './outbound-error.js';
import type { OutboundError } from './outbound-error.js';

/** One address a name resolves to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/**
 * Node's `dns.lookup` as the guard calls it (always with `all: true`). Written without Node's own types:
 * the server's types travel into the browser package's declarations (the router's context), which must
 * not need Node's.
 */
export type Resolver = (
  hostname: string,
  options: { readonly all: true },
  callback: (error: Error | null, addresses: ResolvedAddress[]) => void,
) => void;

/** Where a connection goes, as undici asks its connector. */
export interface ConnectTarget {
  readonly hostname: string;
  readonly port: string;
  readonly protocol: string;
}

/** A socket as the guard looks at it. */
export interface OpenedSocket {
  readonly remoteAddress?: string | undefined;
  destroy(): void;
}

/**
 * Opens a socket for a target (undici's connector, or a test's): calls back with the socket, or an
 * error. Typed without undici's or Node's types, for the same reason as {@link Resolver}.
 */
export type SocketOpener = (
  target: ConnectTarget,
  callback: (error: Error | null, socket: OpenedSocket | null) => void,
) => void;

/** The system's resolver, in the shape of {@link Resolver}. */
const systemResolver: Resolver = (hostname, options, callback) =>
  dnsLookup(hostname, options as LookupAllOptions, callback);

/** Options of {@link guardedConnector}. */
export interface GuardOptions {
  readonly allow: OutboundAllowList;
  /** Resolves names (default: the system's `dns.lookup`; tests pass their own). */
  readonly resolve?: Resolver;
  /** Longest wait for a connection, ms. */
  readonly connectTimeoutMs: number;
  /** Opens sockets (default: undici's own connector); tests pass one to see the last check. */
  readonly base?: SocketOpener | undefined;
}

/** The port a URL of `protocol` reaches when it names none. */
export const defaultPort = (protocol: string): number =>
  protocol === 'https:' ? 443 : 80;

/**
 * Whether a URL naming `host` and `port` may be requested at all, before any name is resolved: refused
 * for `localhost` names, and for address literals that are neither public nor in the allowlist.
 */
export function hostRefusal(
  host: string,
  port: number,
  allow: OutboundAllowList,
): OutboundError | null {
  if (isLocalhostName(host)) {
    return refused('localhost', `${host} names this machine`);
  }
  if (!isAddressLiteral(host) || allow.allows(host, port)) return null;
  const verdict = classifyAddress(host);
  return verdict.public
    ? null
    : refused(
        verdict.range,
        `${verdict.address} is a ${verdict.range} address`,
      );
}

/**
 * Whether a socket opened for `host`:`port` may be used: its remote address must be public, or be the
 * very address of an allowed literal.
 */
export function connectedRefusal(
  remoteAddress: string | undefined,
  { host, port }: { readonly host: string; readonly port: number },
  allow: OutboundAllowList,
): OutboundError | null {
  if (remoteAddress === undefined) {
    return refused('unknown', 'the connected address is unknown');
  }
  if (
    isAddressLiteral(host) &&
    allow.allows(host, port) &&
    normalizeAddress(remoteAddress) === normalizeAddress(host)
  ) {
    return null;
  }
  const verdict = classifyAddress(remoteAddress);
  return verdict.public
    ? null
    : refused(
        verdict.range,
        `connected to ${verdict.address}, a ${verdict.range} address`,
      );
}

/**
 * A lookup for `net.connect` that fails when any address of the name is not public (a name with one
 * private address among public ones is refused whole: which one a connection picks is not ours to say).
 */
export function guardedLookup(resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) {
        callback(error as NodeJS.ErrnoException, '', 4);
        return;
      }
      for (const { address } of addresses) {
        const verdict = classifyAddress(address);
        if (!verdict.public) {
          callback(
            refused(
              verdict.range,
              `${hostname} resolves to ${verdict.address}, a ${verdict.range} address`,
            ),
            '',
            4,
          );
          return;
        }
      }
      const [first] = addresses;
      if (first === undefined) {
        const none: NodeJS.ErrnoException = new Error(
          `${hostname}: no address`,
        );
        none.code = 'ENOTFOUND';
        callback(none, '', 4);
      } else if (options.all === true) {
        callback(null, [...addresses]);
      } else {
        callback(null, first.address, first.family);
      }
    });
  };
}

/** The connector of the outbound agent: undici's, behind the three checks. */
export function guardedConnector(
  options: GuardOptions,
): buildConnector.connector {
  const resolve: Resolver = options.resolve ?? systemResolver;
  const base: SocketOpener =
    options.base ??
    (buildConnector({
      timeout: options.connectTimeoutMs,
      lookup: guardedLookup(resolve),
    }) as SocketOpener);
  const connector: buildConnector.connector = (target, callback) => {
    const host = target.hostname;
    const port = Number(target.port) || defaultPort(target.protocol);
    const early = hostRefusal(host, port, options.allow);
    if (early !== null) {
      callback(early, null);
      return;
    }
    base(target, (error, socket) => {
      if (error !== null || socket === null) {
        callback(error ?? new Error('no socket'), null);
        return;
      }
      const late = connectedRefusal(
        socket.remoteAddress,
        { host, port },
        options.allow,
      );
      if (late !== null) {
        socket.destroy();
        callback(late, null);
        return;
      }
      callback(null, socket as Socket);
    });
  };
  return connector;
}
