/**
 * The word lists the dataset is drawn from, most common first (the Zipf sampler gives rank 1 the highest
 * weight). Plain English words about places, food, travel and tools, so labels and descriptions read like
 * real bookmarks and substring searches behave like real ones (short words hide inside longer ones).
 */

/** Words for labels and descriptions. */
export const WORDS: readonly string[] = `
guide city coffee park bridge street map review best local new open food market museum history photo
tour river night free music cafe tea garden art old house shop bike train station travel book north
south east west harbor beach island hill lake trail view tower square church library school center
weekend morning evening summer winter spring autumn family kids dog cheap quiet small big famous
hidden secret classic modern vintage craft bakery pizza noodle ramen taco burger bagel donut sushi
salad soup wine beer cocktail bar pub club theater cinema concert festival gallery studio design
architecture skyline sunset sunrise walk run swim climb ride drive ferry bus subway tram airport
hotel hostel camp cabin road highway tunnel pier dock lighthouse castle palace fort ruin temple
shrine mosque cathedral chapel cemetery zoo aquarium stadium arena court field track pool gym
spa sauna yoga class lesson course tutorial recipe menu deal sale coupon ticket pass schedule
calendar event meetup conference talk panel workshop podcast video blog forum wiki news weather
traffic parking rental repair service support contact account login profile settings download
upload backup sync mirror archive index list catalog directory search filter sort rank score
vote poll survey report chart graph table dataset api docs reference manual spec standard
`
  .split(/\s+/)
  .filter((w) => w !== '');

/** Tags, most common first. */
export const TAGS: readonly string[] = `
nyc sf coffee food travel park bridge museum music art history bike car train beach hike
weekend kids cheap free night brunch bakery pizza ramen tea wine beer cafe market books
photo design architecture skyline sunset ferry subway airport hotel camping lake island
trail castle church library zoo stadium theater cinema festival gallery yoga spa gym
tools docs api news weather podcast video blog recipes deals tickets events maps
`
  .split(/\s+/)
  .filter((w) => w !== '');

/** Host names for link URLs, most common first. */
export const HOSTS: readonly string[] = [
  'example.com',
  'example.org',
  'maps.example.net',
  'blog.example.io',
  'shop.example.co',
  'wiki.example.dev',
  'news.example.info',
  'photos.example.app',
];

/** A word that occurs in no generated field (label, url, tags, description, id): searching it matches nothing. */
export const NO_MATCH_WORD = 'qzxjvk';
