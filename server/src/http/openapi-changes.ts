/**
 * The OpenAPI description of conditional writes (`If-Match` / `If-None-Match`, `ETag`, 412) and of the
 * change feed (`GET /events`), which the generator cannot derive from the procedures: the preconditions
 * travel in headers, and the feed is a stream.
 */
type Json = Record<string, unknown>;

const isJson = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const ERROR_CONTENT = {
  'application/json': { schema: { $ref: '#/components/schemas/Error' } },
};

const ETAG_HEADER = {
  description:
    'Strong entity tag of the stored version; send it back in `If-Match` to write only over it',
  schema: { type: 'string' },
};

const IF_MATCH = {
  in: 'header',
  name: 'If-Match',
  required: false,
  description:
    'Write only if the stored version has one of these ETags (`*`: if the config exists). Otherwise 412, nothing changes.',
  schema: { type: 'string' },
};

const IF_NONE_MATCH_PUT = {
  in: 'header',
  name: 'If-None-Match',
  required: false,
  description: '`*`: create only; 412 when the config exists.',
  schema: { type: 'string', enum: ['*'] },
};

const PRECONDITION_FAILED = {
  description:
    'A precondition failed: the stored version differs (or is missing, or exists for `If-None-Match: *`). The `ETag` header names the stored version; it is absent when the config does not exist.',
  headers: { ETag: ETAG_HEADER },
  content: ERROR_CONTENT,
};

const EVENTS: Json = {
  get: {
    tags: ['configs'],
    summary: 'The change feed (Server-Sent Events)',
    description: [
      'A `text/event-stream` of every committed change. Each change is an event with `id: <change id>`,',
      '`event: change` and `data: {"name", "op": "put" | "delete", "etag": string | null, "updatedAt"}`.',
      'Reconnect with `Last-Event-ID` (or `?lastEventId=`) to get every change after that id first.',
      '`event: reset` (data `{}`, its id the latest change id) means the id is older than the kept',
      'history: list the configs again. A comment line is sent as a heartbeat. Same access as reads.',
    ].join(' '),
    parameters: [
      {
        in: 'header',
        name: 'Last-Event-ID',
        required: false,
        description: 'Resume after this change id',
        schema: { type: 'string', pattern: '^\\d+$' },
      },
      {
        in: 'query',
        name: 'lastEventId',
        required: false,
        description: 'The same, for clients that cannot set headers',
        schema: { type: 'string', pattern: '^\\d+$' },
      },
    ],
    responses: {
      '200': {
        description: 'The stream; it stays open',
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      },
      '400': {
        description: 'The last event id is not a decimal id',
        content: ERROR_CONTENT,
      },
      '401': {
        description: 'A bearer token is needed, or the one given is not valid',
        content: ERROR_CONTENT,
      },
      '503': {
        description:
          'Too many open streams, or the server is shutting down; retry after `Retry-After` seconds',
        headers: {
          'Retry-After': { schema: { type: 'integer' } },
        },
        content: ERROR_CONTENT,
      },
    },
  },
};

/** Adds the conditional-write headers and `GET /events` to a generated document (in place). */
export function documentChanges(doc: Json): void {
  const paths = isJson(doc['paths']) ? doc['paths'] : {};
  const item = paths['/configs/{name}'];
  if (isJson(item)) {
    for (const [method, extra] of [
      ['put', [IF_MATCH, IF_NONE_MATCH_PUT]],
      ['delete', [IF_MATCH]],
    ] as const) {
      const op = item[method];
      if (!isJson(op)) continue;
      // The procedure takes the preconditions as input fields; over REST they are headers.
      const generated = Array.isArray(op['parameters']) ? op['parameters'] : [];
      op['parameters'] = [
        ...generated.filter(
          (p) =>
            !(
              isJson(p) &&
              (p['name'] === 'ifMatch' || p['name'] === 'ifNoneMatch')
            ),
        ),
        ...extra,
      ];
      const responses = isJson(op['responses']) ? op['responses'] : {};
      responses['412'] = PRECONDITION_FAILED;
      const stored = responses['204'];
      if (method === 'put' && isJson(stored)) {
        stored['headers'] = { ETag: ETAG_HEADER };
      }
      op['responses'] = responses;
    }
    const get = item['get'];
    const ok =
      isJson(get) && isJson(get['responses'])
        ? get['responses']['200']
        : undefined;
    if (isJson(ok)) ok['headers'] = { ETag: ETAG_HEADER };
  }
  paths['/events'] = EVENTS;
  doc['paths'] = paths;
}
