/**
 * The rules contract in one import: the rules file's schemas (./rules-schema.ts), the pure engine
 * (./rules-engine.ts), the state slice and decision notes (./rules-view.ts), and model prices
 * (./model-prices.ts). Those modules import each other directly, never this index, so it closes
 * no import cycle.
 */
export * from './rules-schema.js';
export * from '../domain/rules-engine.js';
export * from './rules-view.js';
export { estimateCostUsd, type ModelPrice } from '../domain/model-prices.js';
