import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { TokenCounter, createTokenizer } from '@ollm/core';
import { expect, it } from 'vitest';
import { checkpointTokenBound, resolveGoalAwareOptions } from '../src/index.js';
import { GOAL } from '../src/test-support/build-conversation.js';
import { startFakeModelServer } from '@ollm/fake-model-server';
import { createModel } from '../src/test-support/fake-models.js';
import { median, runLongSession } from '../src/test-support/long-session.js';

// The largest SWE-agent transcript of ../shared/fixtures (else the repository's copy), grown 4
// turns at a time and compressed 50 times at limit 6000 through the ollama client on the fake server.
const SHARED = new URL('../../../../shared/fixtures/swe-agent-django/', import.meta.url).pathname;
const LOCAL = new URL('../../../fixtures/swe-agent-django/', import.meta.url).pathname;

it('measures model tokens per compression and checkpoint tokens over 50 compressions', async () => {
  const folder = existsSync(SHARED) ? SHARED : LOCAL;
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.traj.json'))
    .map((name) => join(folder, name));
  const file = files.sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
  const server = await startFakeModelServer();
  const tokens = new TokenCounter(createTokenizer('o200k_base'));
  try {
    const steps = await runLongSession({ file, steps: 50, turnsPerStep: 4, limit: 6000, server, model: createModel(server, 'ollama'), tokens, goal: GOAL });
    const bound = checkpointTokenBound(resolveGoalAwareOptions({}, { maxToolResultTokens: 2000, reasoningStripAgeThreshold: 5 }).levelTargets);
    console.log(`file: ${file} (${statSync(file).size} bytes)`);
    console.log('step  full-conversation  context  checkpoints(n)  sent-to-model  calls');
    for (const step of steps) {
      console.log(
        `${String(step.step).padStart(4)}  ${String(step.fullTokens).padStart(17)}  ${String(step.contextTokens).padStart(7)}  ${String(step.checkpointTokens).padStart(11)}(${step.checkpointCount})  ${String(step.sentTokens).padStart(13)}  ${step.modelCalls}`,
      );
    }
    const sent = steps.map((step) => step.sentTokens).filter((value) => value > 0);
    console.log(
      `sent per compression: median ${median(sent)}, min ${Math.min(...sent)}, max ${Math.max(...sent)}; steps 5-15 median ${median(steps.slice(4, 15).map((s) => s.sentTokens))}, steps 40-50 median ${median(steps.slice(39).map((s) => s.sentTokens))}`,
    );
    console.log(
      `checkpoint tokens: final ${steps.at(-1)!.checkpointTokens}, max ${Math.max(...steps.map((s) => s.checkpointTokens))} (bound ${bound}); final full conversation ${steps.at(-1)!.fullTokens} tokens`,
    );
    expect(Math.max(...steps.map((s) => s.checkpointTokens))).toBeLessThanOrEqual(bound);
  } finally {
    await server.close();
  }
});
