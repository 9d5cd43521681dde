/**
 * The built-in `:location:` filter (docs/expression-reference.md §10.3): presence, great-circle radius,
 * bounding box over `meta.location = [lat, lng]`.
 */

const EARTH_RADIUS: Readonly<Record<string, number>> = { km: 6371, mi: 3958.8 };
const RADIUS = /^([0-9]+(?:\.[0-9]+)?)(km|mi)$/i;

/** A `[lat, lng]` pair. */
export type Point = readonly [number, number];

/** A predicate on a located link's point, or `null` when the arguments select nothing. */
export type LocationFilter = ((point: Point) => boolean) | null;

/** `LAT,LNG`: exactly two parts, each read like `parseFloat`; `null` when unreadable. */
function parsePoint(text: string): Point | null {
  const parts = text.split(',');
  if (parts.length !== 2) return null;
  const lat = Number.parseFloat(parts[0] ?? '');
  const lng = Number.parseFloat(parts[1] ?? '');
  return Number.isNaN(lat) || Number.isNaN(lng) ? null : [lat, lng];
}

const toRadians = (degrees: number): number => (degrees * Math.PI) / 180;

/** Haversine distance between `centre` and `point`, on a sphere of the given radius. */
export function haversine(centre: Point, point: Point, radius: number): number {
  const phi1 = toRadians(centre[0]);
  const phi2 = toRadians(point[0]);
  const dPhi = toRadians(point[0] - centre[0]);
  const dLambda = toRadians(point[1] - centre[1]);
  const h =
    Math.sin(dPhi / 2) ** 2 +
    Math.cos(phi1) * Math.cos(phi2) * Math.sin(dLambda / 2) ** 2;
  return radius * 2 * Math.atan2(Math.sqrt(h), Math.sqrt(1 - h));
}

function radiusFilter(centreText: string, radiusText: string): LocationFilter {
  const centre = parsePoint(centreText);
  const match = RADIUS.exec(radiusText);
  if (centre === null || match === null) return null;
  const max = Number(match[1]);
  const earth = EARTH_RADIUS[(match[2] ?? '').toLowerCase()] ?? NaN;
  return (point) => haversine(centre, point, earth) <= max;
}

function bboxFilter(cornerA: string, cornerB: string): LocationFilter {
  const a = parsePoint(cornerA);
  const b = parsePoint(cornerB);
  if (a === null || b === null) return null;
  const [minLat, maxLat] = a[0] <= b[0] ? [a[0], b[0]] : [b[0], a[0]];
  const [minLng, maxLng] = a[1] <= b[1] ? [a[1], b[1]] : [b[1], a[1]];
  return (point) =>
    minLat <= point[0] &&
    point[0] <= maxLat &&
    minLng <= point[1] &&
    point[1] <= maxLng;
}

/**
 * Compiles the arguments of `:location:` once per atom into a test on a link's point (links without a
 * location never match; the caller skips them).
 */
export function locationFilter(args: readonly string[]): LocationFilter {
  if (args.length === 0) return () => true;
  if (args.length !== 3) return null;
  const [mode, first = '', second = ''] = args;
  if (mode === 'radius') return radiusFilter(first, second);
  if (mode === 'bbox') return bboxFilter(first, second);
  return null;
}
