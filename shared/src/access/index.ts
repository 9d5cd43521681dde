export {
  NamePattern,
  NamePatterns,
  anyNameMatches,
  nameMatches,
  patternWithin,
  patternsWithin,
} from './name-patterns.js';
