import { pino } from 'pino';
import type { Logger } from 'pino';

/** The structured logger (JSON lines on stdout). Request bodies and tokens are never logged. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'linkconfig' },
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        'authorization',
        'token',
        'apiToken',
        'readToken',
      ],
      censor: '[redacted]',
    },
  });
}
