// Types of stryker.config.mjs, for the test that checks its areas' parts.
import type { PartialStrykerOptions } from '@stryker-mutator/api/core';

export interface MutationArea {
  mutate: string[];
  tests: string[];
  /** Parts run one after the other, each with its own report. */
  parts?: Record<string, string[]>;
}
export const AREAS: Record<string, MutationArea>;
declare const config: PartialStrykerOptions;
export default config;
