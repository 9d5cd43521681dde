export { anyNameMatches, nameMatches } from './name-patterns.js';
