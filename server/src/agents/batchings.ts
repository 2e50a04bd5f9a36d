import type { Batchings } from './batching';
import { crawlerBatching } from './crawler/batches';
import { engineerBatching } from './engineer/batches';
import { generatorBatching } from './generator/batches';

/** How each agent's work is cut into batches and merged back. */
export const BATCHINGS: Batchings = { crawler: crawlerBatching, generator: generatorBatching, engineer: engineerBatching };
