import { runConfigRepositoryContract } from '../contract/config-repository.contract.js';
import { createMemoryConfigRepository } from './memory-config-repository.js';

runConfigRepositoryContract('memory', { create: createMemoryConfigRepository });
