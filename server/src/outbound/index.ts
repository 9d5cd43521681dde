/**
 * The one outbound module: every HTTP request the server makes of its own goes through {@link Outbound}
 * (behind the SSRF guard), and redirects are followed only through {@link followRedirects}.
 */
export {
  classifyAddress,
  isLocalhostName,
  OutboundAllowList,
} from './address-policy.js';
export type { AddressClass } from './address-policy.js';
export {
  AGENT_TOKEN,
  DEFAULT_MAX_BYTES,
  DEFAULT_TIMEOUT_MS,
  Outbound,
  userAgentOf,
} from './outbound.js';
export type {
  OutboundOptions,
  OutboundRequest,
  OutboundResponse,
  OutboundStats,
} from './outbound.js';
export type {
  ConnectTarget,
  OpenedSocket,
  Resolver,
  SocketOpener,
} from './guarded-connector.js';
export { OutboundError } from './outbound-error.js';
export type { OutboundFailure } from './outbound-error.js';
export { registerOutboundMetrics } from './outbound-metrics.js';
export {
  DEFAULT_MAX_REDIRECTS,
  followRedirects,
  RedirectChainError,
} from './redirects.js';
export type { FollowedResponse, RedirectHop } from './redirects.js';
