import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GoalState } from '../provider/provider-context.js';
import { ARTIFACTS_SHOWN, parseGoalBlock, renderGoalBlock } from './goal-markers.js';

const line = fc.stringMatching(/^[A-Za-z0-9`][A-Za-z0-9 ./_`:()-]{0,40}[A-Za-z0-9`)]$/);

const goal: fc.Arbitrary<GoalState> = fc.record(
  {
    description: line,
    priority: fc.constantFrom('high' as const, 'medium' as const, 'low' as const),
    status: fc.constantFrom('active' as const, 'completed' as const, 'abandoned' as const),
    checkpoints: fc.array(fc.record({ description: line, status: fc.constantFrom('completed' as const, 'in-progress' as const, 'pending' as const) }), {
      maxLength: 4,
    }),
    decisions: fc.array(
      fc.oneof(
        fc.record({ description: line, locked: fc.boolean() }),
        fc.record({ description: line, locked: fc.constant(false), by: fc.constant('model' as const) }),
      ),
      { maxLength: 4 },
    ),
    artifacts: fc.array(fc.record({ action: fc.constantFrom('created' as const, 'modified' as const, 'deleted' as const), path: line }), { maxLength: 4 }),
    next: line,
  },
  { requiredKeys: ['description', 'priority', 'status', 'checkpoints', 'decisions', 'artifacts'] },
);

/** The block lists locked decisions, then the user's open ones, then the model's proposals: what reading it back can give. */
function asRendered(state: GoalState): GoalState {
  const { decisions } = state;
  return {
    ...state,
    decisions: [
      ...decisions.filter((decision) => decision.locked),
      ...decisions.filter((decision) => !decision.locked && decision.by !== 'model'),
      ...decisions.filter((decision) => !decision.locked && decision.by === 'model'),
    ],
  };
}

describe('the goal block', () => {
  it("starts with the design's header lines: the goal, its priority and its status", () => {
    const block = renderGoalBlock({ description: 'ship the parser', priority: 'high', checkpoints: [], decisions: [], artifacts: [] });
    expect(block.split('\n')).toEqual(['ACTIVE GOAL: ship the parser', 'Priority: high', 'Status: active']);
  });

  it('reads a goal saved before priorities as medium and active', () => {
    expect(renderGoalBlock({ description: 'old goal', checkpoints: [], decisions: [], artifacts: [] })).toBe(
      'ACTIVE GOAL: old goal\nPriority: medium\nStatus: active',
    );
  });

  it('is read back as the goal it was rendered from (property)', () => {
    fc.assert(
      fc.property(goal, (state) => {
        expect(parseGoalBlock(renderGoalBlock(state))).toEqual(asRendered(state));
      }),
      { seed: 36, numRuns: 300 },
    );
  });

  it('is found inside a system message, and ends at the first line that is not part of it', () => {
    const block = renderGoalBlock({
      description: 'fix the date parser',
      checkpoints: [{ description: 'write a failing test', status: 'completed' }],
      decisions: [{ description: 'keep the public API', locked: true }],
      artifacts: [{ action: 'modified', path: 'src/parse.ts' }],
      next: 'run the suite',
    });
    const system = `You are a coding assistant.\n\n${block}\n\nFolded user messages:\n  - hello`;
    expect(parseGoalBlock(system)).toEqual({
      description: 'fix the date parser',
      priority: 'medium',
      status: 'active',
      checkpoints: [{ description: 'write a failing test', status: 'completed' }],
      decisions: [{ description: 'keep the public API', locked: true }],
      artifacts: [{ action: 'modified', path: 'src/parse.ts' }],
      next: 'run the suite',
    });
  });

  it('lists the newest artifacts of a long session and counts the rest (the block is never compacted)', () => {
    const artifacts = Array.from({ length: ARTIFACTS_SHOWN + 7 }, (_, index) => ({ action: 'modified' as const, path: `src/file-${index}.ts` }));
    const block = renderGoalBlock({ description: 'refactor', checkpoints: [], decisions: [], artifacts, next: 'run the suite' });
    expect(block).toContain('  - (7 earlier not listed)');
    expect(block).not.toContain('src/file-6.ts');
    expect(block).toContain(`src/file-${ARTIFACTS_SHOWN + 6}.ts`);
    const read = parseGoalBlock(block)!;
    expect(read.artifacts).toEqual(artifacts.slice(7));
    expect(read.next).toBe('run the suite');
  });

  it("shows the model's decisions apart, as proposals, never among the user's", () => {
    const block = renderGoalBlock({
      description: 'ship',
      checkpoints: [],
      decisions: [
        { description: 'never ask the user', locked: false, by: 'model' },
        { description: 'keep the API', locked: true, by: 'user' },
        { description: 'use zod', locked: false },
      ],
      artifacts: [],
    });
    expect(block).toBe(
      [
        'ACTIVE GOAL: ship',
        'Priority: medium',
        'Status: active',
        'Locked decisions (do not revisit):',
        '  - keep the API',
        'Decisions:',
        '  - use zod',
        'Proposed by the model (not confirmed by the user):',
        '  - never ask the user',
      ].join('\n'),
    );
  });

  it('is absent from text without one', () => {
    expect(parseGoalBlock('You are a coding assistant.')).toBeUndefined();
    expect(parseGoalBlock('ACTIVE GOAL:   ')).toBeUndefined();
  });
});
