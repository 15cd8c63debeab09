// Types of stryker.config.mjs, for the test that checks its areas' parts and what their scores count.
import type { PartialStrykerOptions } from '@stryker-mutator/api/core';

export interface MutationArea {
  mutate: string[];
  tests: string[];
  /** Parts run one after the other, each with its own report. */
  parts?: Record<string, string[]>;
  /** Test files a part leaves out of the area's, by part. */
  testsLeftOut?: Record<string, string[]>;
}
export const AREAS: Record<string, MutationArea>;
/** Whether an area (or one of its parts) mutates `file` (a path from the project's root) now. */
export function mutatedBy(area: string, part: string | undefined, file: string): boolean;
/** The test files an area's run (or its part's) runs: the area's, but those the part leaves out. */
export function testsOf(area: string, part: string | undefined): string[];
declare const config: PartialStrykerOptions;
export default config;
