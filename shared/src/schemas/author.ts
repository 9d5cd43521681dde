import { z } from 'zod';

/**
 * Who made a change, as history records it: the access key's id and label (`null` where the server is
 * open, so nobody is known).
 */
export const AuthorSchema = z
  .object({
    id: z.string().min(1).describe("the access key's id"),
    label: z.string().describe("the access key's label"),
  })
  .meta({ id: 'Author' });

export type Author = z.infer<typeof AuthorSchema>;
