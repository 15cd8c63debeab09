// Types of stryker.config.mjs, for the test that checks its areas' parts and what their scores count.
import type { PartialStrykerOptions } from '@stryker-mutator/api/core';

export interface MutationArea {
  mutate: string[];
  tests: string[];
  /** Parts run one after the other, each with its own report. */
  parts?: Record<string, string[]>;
}
export const AREAS: Record<string, MutationArea>;
/** Whether an area (or one of its parts) mutates `file` (a path from the project's root) now. */
export function mutatedBy(area: string, part: string | undefined, file: string): boolean;
declare const config: PartialStrykerOptions;
export default config;
