/**
 * Oldest first, then by id: the order in which stores list what they keep by creation (keys, hooks),
 * as the SQL adapters' `ORDER BY created_at, id` gives it.
 */
export const byCreationThenId = (
  a: { readonly createdAt: string; readonly id: string },
  b: { readonly createdAt: string; readonly id: string },
): number =>
  a.createdAt < b.createdAt
    ? -1
    : a.createdAt > b.createdAt
      ? 1
      : a.id < b.id
        ? -1
        : a.id > b.id
          ? 1
          : 0;
