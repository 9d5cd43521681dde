import type { LinkConfig } from '@linkconfig/shared';

/** The `demo` config seeded into an empty database: cars, New York, San Francisco and coffee. */
export const DEMO_CONFIG: LinkConfig = {
  allLinks: {
    vwbug: {
      label: 'VW Beetle',
      url: 'https://en.wikipedia.org/wiki/Volkswagen_Beetle',
      tags: ['car', 'germany', 'classic'],
      description: 'The people’s car, built from 1938 to 2003.',
    },
    miata: {
      label: 'Mazda MX-5',
      url: 'https://en.wikipedia.org/wiki/Mazda_MX-5',
      tags: ['car', 'japan', 'roadster'],
      description: 'A light two-seat roadster.',
    },
    mustang: {
      label: 'Ford Mustang',
      url: 'https://en.wikipedia.org/wiki/Ford_Mustang',
      tags: ['car', 'usa', 'classic'],
      description: 'The original pony car.',
    },
    brooklynbridge: {
      label: 'Brooklyn Bridge',
      url: 'https://en.wikipedia.org/wiki/Brooklyn_Bridge',
      tags: ['nyc', 'bridge', 'landmark'],
      description: 'Suspension bridge over the East River, opened 1883.',
      meta: { location: [40.7061, -73.9969] },
    },
    manhattanbridge: {
      label: 'Manhattan Bridge',
      url: 'https://en.wikipedia.org/wiki/Manhattan_Bridge',
      tags: ['nyc', 'bridge'],
      description: 'Between Lower Manhattan and Brooklyn.',
      meta: { location: [40.7075, -73.9903] },
    },
    centralpark: {
      label: 'Central Park',
      url: 'https://en.wikipedia.org/wiki/Central_Park',
      tags: ['nyc', 'park', 'landmark'],
      meta: { location: [40.7829, -73.9654], timestamp: '2025-03-20' },
    },
    katz: {
      label: 'Katz’s Delicatessen',
      url: 'https://en.wikipedia.org/wiki/Katz%27s_Delicatessen',
      tags: ['nyc', 'food'],
    },
    goldengate: {
      label: 'Golden Gate Bridge',
      url: 'https://en.wikipedia.org/wiki/Golden_Gate_Bridge',
      tags: ['sf', 'bridge', 'landmark'],
      description: 'Opened in 1937 across the Golden Gate strait.',
      meta: { location: [37.8199, -122.4783] },
    },
    baybridge: {
      label: 'Bay Bridge',
      url: 'https://en.wikipedia.org/wiki/San_Francisco%E2%80%93Oakland_Bay_Bridge',
      tags: ['sf', 'bridge'],
      meta: { location: [37.7983, -122.3778] },
    },
    cablecar: {
      label: 'Cable cars',
      url: 'https://en.wikipedia.org/wiki/San_Francisco_cable_car_system',
      tags: ['sf', 'transit', 'landmark'],
    },
    bluebottle: {
      label: 'Blue Bottle Coffee',
      url: 'https://en.wikipedia.org/wiki/Blue_Bottle_Coffee',
      tags: ['coffee', 'sf'],
      createdAt: '2025-01-10T09:00:00Z',
    },
    joe: {
      label: 'Joe Coffee',
      url: 'https://en.wikipedia.org/wiki/Joe_Coffee_Company',
      tags: ['coffee', 'nyc'],
      createdAt: '2025-01-14T18:00:00Z',
    },
    espresso: {
      label: 'Espresso',
      url: 'https://en.wikipedia.org/wiki/Espresso',
      tags: ['coffee'],
      description:
        'Coffee brewed by forcing hot water through finely ground beans.',
      createdAt: '2024-12-20T00:00:00Z',
    },
  },
  macros: {
    cars: { linkItems: '.car' },
    nycbridges: { linkItems: '.nyc + .bridge' },
    sfcoffee: { linkItems: '.sf + .coffee' },
    firsttwo: { linkItems: '*sort* *limit:2*' },
  },
  searchPatterns: {
    bridges: { pattern: 'bridge', options: { fields: 'l', sort: 'alpha' } },
    wiki: 'wikipedia',
    recent: { pattern: 'coffee', options: { age: '1w', sort: 'newest' } },
  },
  settings: { listType: 'ul', menuTimeout: 5000 },
};
