/**
 * The short syntax help of the expression field. The examples run against the demo config the server
 * seeds (cars, New York, San Francisco, coffee), so a new user can try each one.
 */

/** One line of the help: what to write, what it means, and an example. */
export interface HelpRow {
  syntax: string;
  meaning: string;
  example: string;
}

/** The help, in the order a person learns the language. */
export const EXPRESSION_HELP: readonly HelpRow[] = [
  { syntax: '.tag', meaning: 'links with this tag', example: '.car' },
  { syntax: 'id', meaning: 'the link with this id', example: 'miata' },
  { syntax: 'A + B', meaning: 'in both A and B', example: '.nyc + .bridge' },
  { syntax: 'A | B', meaning: 'in A or B', example: '.car | .coffee' },
  { syntax: 'A - B', meaning: 'in A but not in B', example: '.bridge - .sf' },
  {
    syntax: 'A, B',
    meaning: 'A’s links, then B’s',
    example: 'goldengate, .coffee',
  },
  {
    syntax: '( … )',
    meaning: 'groups; without them, operators apply left to right',
    example: '.nyc + (.bridge | .park)',
  },
  { syntax: '@name', meaning: 'a macro of the config', example: '@nycbridges' },
  {
    syntax: '/key/',
    meaning: 'a search pattern of the config',
    example: '/bridges/',
  },
  {
    syntax: ':location:radius:LAT,LNG:5km:',
    meaning: 'links placed within 5 km of a point (also :location:bbox:…:)',
    example: ':location:radius:40.71,-73.99:5km:',
  },
  {
    syntax: ':time:7d:',
    meaning: 'links dated in the last 7 days (h, d, w; or dates)',
    example: '.nyc :time:30d:',
  },
  {
    syntax: '*sort* *sort:id*',
    meaning: 'sort by label, or by another field',
    example: '.bridge *sort*',
  },
  {
    syntax: '*limit:N* *skip:N*',
    meaning: 'keep the first N, or leave them out',
    example: '.car *sort* *limit:2*',
  },
  {
    syntax: '*reverse* *unique* *shuffle*',
    meaning: 'reverse, drop repeated URLs, mix',
    example: '.coffee *reverse*',
  },
];
