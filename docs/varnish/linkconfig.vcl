vcl 4.1;
# Varnish in front of the Link Config Service (docs/publishing.md, "Caches"). Tested with Debian's
# varnish 7.1 by e2e/varnish (npm test). Edit the backend and the purgers ACL for your deployment.
#
# What it does:
# - caches only GET/HEAD under /published, and only what the server marks cacheable: its
#   Cache-Control (s-maxage before max-age) sets the lifetime, stale-while-revalidate the grace
#   (served stale while one background fetch refreshes), stale-if-error how long a copy is served
#   when the server is down (a health probe tells);
# - everything else (the API, the web page, /events, writes) passes through uncached;
# - a request with Authorization is answered from the cache only with what the server marked public;
# - PURGE and BAN are accepted only from the purgers ACL (the server's address): by Surrogate-Key tags
#   (what a publish sends) and, for PURGE, the URL itself.

import std;

backend linkconfig {
    .host = "127.0.0.1";
    .port = "8080";
    # The probe tells a stopped server from a slow one: while it fails, copies are served up to their
    # stale-if-error age instead of an error.
    .probe = {
        .url = "/healthz";
        .interval = 1s;
        .timeout = 1s;
        .window = 3;
        .threshold = 2;
        .initial = 2;
    }
}

# Who may purge: the server's own address (each instance's, when there are several).
acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    if (req.method == "PURGE" || req.method == "BAN") {
        if (client.ip !~ purgers) {
            return (synth(403, "purging is not allowed from this address"));
        }
        if (req.http.Surrogate-Key) {
            # Tags are letters, digits, '-', '_', '%' and ':' (the server escapes everything else),
            # separated by spaces or commas: safe to put into a regular expression as they are.
            if (req.http.Surrogate-Key !~ "^[A-Za-z0-9%_:, -]+$") {
                return (synth(400, "Surrogate-Key holds characters a tag never has"));
            }
            set req.http.X-Purge-Tags = regsuball(
                regsuball(req.http.Surrogate-Key, "^[ ,]+|[ ,]+$", ""), "[ ,]+", "|");
            if (!std.ban("obj.http.Surrogate-Key ~ (^|[[:space:],])(" + req.http.X-Purge-Tags + ")([[:space:],]|$)")) {
                return (synth(400, std.ban_error()));
            }
        } else if (req.method == "BAN") {
            return (synth(400, "BAN needs a Surrogate-Key header"));
        }
        if (req.method == "PURGE") {
            return (purge);
        }
        return (synth(200, "banned"));
    }

    # Only the published view is cached; everything else goes to the server as it came.
    if (req.url !~ "^/published(/|\?|$)") {
        return (pass);
    }
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    # The server does not read cookies under /published: a site's cookies must not split the cache.
    unset req.http.Cookie;
    # While the server is healthy a stale copy is served only within its stale-while-revalidate (see
    # vcl_hit); while it is down, within its stale-if-error.
    if (!std.healthy(req.backend_hint)) {
        set req.http.X-Backend-Down = "1";
    }
    if (req.restarts > 0) {
        # vcl_hit found the copy too stale: fetch a fresh one now.
        set req.hash_always_miss = true;
    }
    # Not the built-in rule (which passes every request with Authorization): such a request is looked
    # up, and vcl_backend_response keeps only answers the server marked public.
    return (hash);
}

sub vcl_hit {
    if (obj.ttl >= 0s) {
        return (deliver);
    }
    # Stale. obj.grace is the longer of stale-while-revalidate and stale-if-error (vcl_backend_response);
    # with a healthy server only the stale-while-revalidate part counts.
    if (req.http.X-Backend-Down) {
        return (deliver);
    }
    if (obj.ttl + std.duration(regsub(obj.http.Cache-Control,
            "^.*stale-while-revalidate=([0-9]+).*$", "\1s"), 0s) > 0s) {
        return (deliver);
    }
    return (restart);
}

sub vcl_backend_response {
    if (bereq.url !~ "^/published(/|\?|$)") {
        return (deliver);
    }
    # Cache only what the server says may be kept by a shared cache, and, for a request that carried
    # Authorization, only what it says is public.
    if (!beresp.http.Cache-Control
        || beresp.http.Cache-Control ~ "(^|[ ,])(private|no-store|no-cache)([ ,=]|$)"
        || (bereq.http.Authorization && beresp.http.Cache-Control !~ "(^|[ ,])public([ ,]|$)")
        || beresp.http.Set-Cookie) {
        set beresp.uncacheable = true;
        set beresp.ttl = 10s;
        return (deliver);
    }
    # beresp.ttl comes from s-maxage (else max-age) as Varnish reads Cache-Control.
    set beresp.grace = std.duration(regsub(beresp.http.Cache-Control,
        "^.*stale-while-revalidate=([0-9]+).*$", "\1s"), 0s);
    if (beresp.http.Cache-Control ~ "stale-if-error=[0-9]+") {
        set beresp.http.X-Stale-If-Error = regsub(beresp.http.Cache-Control,
            "^.*stale-if-error=([0-9]+).*$", "\1s");
        if (std.duration(beresp.http.X-Stale-If-Error, 0s) > beresp.grace) {
            set beresp.grace = std.duration(beresp.http.X-Stale-If-Error, 0s);
        }
        unset beresp.http.X-Stale-If-Error;
    }
    # Kept a while longer still, so the next fetch is a conditional one (If-None-Match → 304).
    set beresp.keep = 1h;
    return (deliver);
}

sub vcl_deliver {
    # The tags are for this cache; browsers and other caches on the way need not see them.
    unset resp.http.Surrogate-Key;
    unset resp.http.Cache-Tag;
    unset resp.http.X-Backend-Down;
    set resp.http.X-Cache = "MISS";
    if (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    }
}

sub vcl_backend_fetch {
    unset bereq.http.X-Backend-Down;
}
