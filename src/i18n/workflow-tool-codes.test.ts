import { describe, expect, it } from 'vitest';
// The tool runtime first, as the server loads it (workflow-run and runtime import each other).
import '../server/tools/runtime';
import { WORKFLOW_RUN_ERRORS } from '../server/tools/workflow-run';
import { resources } from './resources';

describe('workflow tool error codes', () => {
  it('has a text for every TOOL-WORKFLOW-* code in zh and en', () => {
    const codes = Object.values(WORKFLOW_RUN_ERRORS);
    expect(codes.length).toBeGreaterThan(0);
    for (const code of codes) {
      expect(resources.zh.errors.codes, code).toHaveProperty([code]);
      expect(resources.en.errors.codes, code).toHaveProperty([code]);
    }
  });
});
