/**
 * The usage text of the server's settings for `--help`: each setting with its variable, flag and default,
 * under the command that was run (`linkconfig-server`, or `linkconfig serve`).
 */
export const usage = (
  command = 'linkconfig-server',
): string => `Usage: ${command} [options]
       (in the repository: node server/dist/main.js [options])

Options (each also an environment variable):
  --port <n>            PORT           port to listen on (default 3000)
  --host <addr>         HOST           address to bind (default 0.0.0.0)
  --database-url <url>  DATABASE_URL   sqlite:<path>, a plain path, or postgres://… for several
                                       instances (default ./data/linkconfig.db)
  --body-limit <size>   BODY_LIMIT     largest body that stores a config (default 10mb)
  --inline-body-limit <size> INLINE_BODY_LIMIT  largest other body, such as an inline config of
                                       /query, /cherry-pick or /expressions/check (default 1mb)
  --body-min-rate <size> BODY_MIN_RATE slowest request body per second after its first second;
                                       slower ones get 408 (default 64kb; 0: no floor)
  --cache-bytes <size>  CACHE_BYTES    memory budget of all the server's caches together: versions,
                                       merges, whole answers and keys (default 256mb)
  --cors-origins <list> CORS_ORIGINS   comma-separated allowed origins, or * (default *)
                        CORS_HEADERS   request headers allowed cross-origin (default: those the
                                       browser asks for, from an allowed origin)
                        EVENTS_MAX_STREAMS  most open change streams, /events and tRPC (default 1000)
                        EVENTS_HEARTBEAT    heartbeat interval of /events streams (default 15s)
                        EVENTS_BUFFER       how far a stream's reader may lag before it is cut off
                                            (default 256kb; it reconnects and resumes by id)
                        CHANGES_KEEP        changes kept for resuming streams (default 10000)
                        CHANGES_MAX_AGE     oldest change kept (default 7d)
                        HISTORY_KEEP   revisions kept per config: all, a count (100) or an age
                                       (365d, 12w, 48h, 30m); pruned hourly (default all)
                        API_TOKEN      admin token for every name: writes (PUT, PATCH, DELETE, restore)
                                       and key management need it or a key (unset and no key
                                       created: anyone writes, nobody manages keys)
                        READ_TOKEN     bearer token for reads (needs API_TOKEN, differs from it;
                                       unset: reads open)
                        METRICS_TOKEN  bearer token for GET /metrics (unset: same access as reads)
  --anonymous-read <list> ANONYMOUS_READ  what requests without a key may read once keys or
                                       API_TOKEN exist: *, none, or name patterns such as
                                       public/*,docs (default *; none when READ_TOKEN is set)
  --log-level <level>   LOG_LEVEL      fatal|error|warn|info|debug|trace|silent (default info)
  --app-dir <path>      APP_DIR        folder of the built web page served at / (default: none in the
                                       installed package; web-client/dist-app in the repository)
  --seed <demo|none>    SEED           seed a demo config into an empty database (default demo)
  --metrics <on|off>    METRICS        GET /metrics and request metrics (default on)
  --compression <on|off> COMPRESSION   compressed responses when the client accepts them (default on)
  --access-log <on|off> ACCESS_LOG     one log line per request (default on)
  --rate-limit <on|off> RATE_LIMIT     per-client budgets for writes, expensive reads and
                                       /published (default on)
  --rate-limit-reads <n>       RATE_LIMIT_READS        expensive reads per second and client (default 100)
  --rate-limit-read-burst <n>  RATE_LIMIT_READ_BURST   their burst (default 500)
  --rate-limit-writes <n>      RATE_LIMIT_WRITES       writes per second and client (default 50)
  --rate-limit-write-burst <n> RATE_LIMIT_WRITE_BURST  their burst (default 200)
  --published-rate-limit-address <n>  PUBLISHED_RATE_LIMIT_ADDRESS  /published requests per
                                       second and address without a key (default 50)
  --published-rate-limit-address-burst <n>  PUBLISHED_RATE_LIMIT_ADDRESS_BURST  their burst
                                       (default 500)
  --published-rate-limit-key <n>  PUBLISHED_RATE_LIMIT_KEY  /published requests per second and
                                       key (default 500)
  --published-rate-limit-key-burst <n>  PUBLISHED_RATE_LIMIT_KEY_BURST  their burst (default 5000)
  --trust-proxy <off|on|n>     TRUST_PROXY   proxies trusted for X-Forwarded-For (default off)
  --workers <auto|n>    WORKERS        server processes sharing the port: auto (one per core) or a
                                       number (default 1); each has its own caches
  --outbound-allow <list> OUTBOUND_ALLOW  IP:PORT pairs (127.0.0.1:8080,[::1]:9000) that the
                                       server's own requests (link checks, purges, webhooks) may
                                       reach although not public; risky, see docs/outbound.md
                                       (default: none)
  --outbound-contact <url> OUTBOUND_CONTACT  URL or e-mail named in their User-Agent
  --link-check <on|off> LINK_CHECK     check every link of every config in the background
                                       (default off; docs/link-health.md)
  --link-check-every <duration> LINK_CHECK_EVERY      how often each URL is checked (default 7d)
  --link-check-confirm <duration> LINK_CHECK_CONFIRM  how far apart two failures must be to
                                       confirm a link broken (default 24h)
  --help                               print this text
`;
