import { z } from 'zod';

/** A number of requests per second, or a burst size, as settings take them: positive. */
export const RateSchema = z.coerce.number().positive().max(1_000_000);
