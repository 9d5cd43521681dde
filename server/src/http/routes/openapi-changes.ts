/**
 * The OpenAPI description of the change feed (`GET /events`), which the generator cannot derive from the
 * procedures: the feed is a stream, served by its own route (`events-route.ts`).
 */
type Json = Record<string, unknown>;

const isJson = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const ERROR_CONTENT = {
  'application/json': { schema: { $ref: '#/components/schemas/Error' } },
};

/** The methods `/events` answers (its route answers 405 to the others). */
export const EVENTS_ALLOW = 'GET';

const EVENTS: Json = {
  get: {
    operationId: 'configs-events',
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
      '500': {
        description: 'Internal error; the details are in the server log',
        content: ERROR_CONTENT,
      },
      '503': {
        description:
          'Too many open streams, the change log cannot be read, or the server is shutting down; retry after `Retry-After` seconds',
        headers: {
          'Retry-After': { schema: { type: 'integer' } },
        },
        content: ERROR_CONTENT,
      },
    },
  },
};

/** Adds `GET /events` to a generated document (in place): a stream has no procedure route. */
export function documentEvents(doc: Json): void {
  const paths = isJson(doc['paths']) ? doc['paths'] : {};
  paths['/events'] = EVENTS;
  doc['paths'] = paths;
}
