import { createRequire } from 'node:module';
import { TokenCounter, createTokenizer } from '@ollm/core';
import { describeMachine } from '../machine.js';
import { interleavedOrder } from '../speed/interleaved-order.js';
import { runAiSdkLoop } from './ai-sdk-loop.js';
import { moduleText, type AgentRun } from './agent-run.js';
import { runLangChainLoop } from './langchain-loop.js';
import type { LoopOutcome } from './loop-outcome.js';
import type { MiddlewareMode } from './middleware-mode.js';
import { MIDDLEWARE_FRAMEWORKS, type MiddlewareFramework, type MiddlewareLoopCase, type MiddlewareReport } from './middleware-report.js';
import {
  MIDDLEWARE_MODEL,
  MIDDLEWARE_PIPELINE,
  MIDDLEWARE_REPLY_LIMIT,
  MIDDLEWARE_WINDOW,
  startMiddlewareRig,
  type ChatRecord,
  type MiddlewareRig,
} from './middleware-rig.js';
import { pairedDifference, statisticsByKind, stepStatistics } from './step-statistics.js';
import type { StepSample } from './step-timeline.js';

/** The packages whose versions the report names. */
const MEASURED_PACKAGES = ['ai', '@ai-sdk/openai-compatible', 'langchain', '@langchain/core', '@langchain/openai'];

export const FRAMEWORK_LOOPS: Readonly<Record<MiddlewareFramework, (rig: MiddlewareRig, run: AgentRun, wrapped: boolean) => Promise<LoopOutcome>>> = {
  'ai-sdk': runAiSdkLoop,
  langchain: runLangChainLoop,
};

interface RunRecord {
  readonly outcome: LoopOutcome;
  readonly chats: readonly ChatRecord[];
}

function packageVersions(): Record<string, string> {
  const require = createRequire(import.meta.url);
  return Object.fromEntries(MEASURED_PACKAGES.map((name) => [name, (require(`${name}/package.json`) as { version: string }).version]));
}

async function runOnce(rig: MiddlewareRig, framework: MiddlewareFramework, steps: number, wrapped: boolean): Promise<RunRecord> {
  const outcome = await FRAMEWORK_LOOPS[framework](rig, rig.begin(steps), wrapped);
  return { outcome, chats: await rig.takeChats() };
}

/** The reused steps of a wrapped loop up to its middle step and after it, when both halves have some. */
function reusedByHalf(samples: readonly StepSample[], loopSteps: number): MiddlewareLoopCase['reusedByHalf'] {
  const splitStep = Math.ceil((loopSteps + 1) / 2);
  const reused = samples.filter((sample) => sample.kind === 'reused');
  const first = reused.filter((sample) => sample.step <= splitStep);
  const second = reused.filter((sample) => sample.step > splitStep);
  if (first.length === 0 || second.length === 0) return undefined;
  return { splitStep, first: stepStatistics(first), second: stepStatistics(second) };
}

function loopCase(
  framework: MiddlewareFramework,
  wrapped: boolean,
  loopSteps: number,
  records: readonly RunRecord[],
  plain?: readonly RunRecord[],
): MiddlewareLoopCase {
  const samples = records.flatMap((record) => record.outcome.samples);
  const halves = wrapped ? reusedByHalf(samples, loopSteps) : undefined;
  const answered = records.flatMap((record) => record.chats.filter((chat) => !chat.refused));
  return {
    framework,
    wrapped,
    loopSteps,
    runs: records.length,
    refusedSteps: records.flatMap((record) => (record.outcome.refusedStep === undefined ? [] : [record.outcome.refusedStep])),
    largestPromptTokens: Math.max(0, ...answered.map((chat) => chat.promptTokens)),
    answeredOverWindow: answered.filter((chat) => chat.promptTokens + chat.maxTokens > MIDDLEWARE_WINDOW).length,
    largestHistoryTokens: Math.max(0, ...records.map((record) => record.outcome.largestHistoryTokens)),
    all: stepStatistics(samples),
    byKind: statisticsByKind(samples),
    ...(plain
      ? {
          added: pairedDifference(
            records.map((record) => record.outcome.samples),
            plain.map((record) => record.outcome.samples),
          ),
        }
      : {}),
    ...(halves ? { reusedByHalf: halves } : {}),
  };
}

/**
 * The middleware section: agent loops of both frameworks against the fake model server (window
 * enforced), each run with the plain model and with `contextMiddleware`, interleaved run by run:
 * each step's time, its model call's, and the middleware's own time inside the call, split by
 * what the middleware did. A short loop every prompt of which fits, and a long one whose history
 * passes the window (the plain model is refused there; the wrapped one runs to its end).
 */
export async function runMiddlewareWorkloads(mode: MiddlewareMode, progress: (text: string) => void): Promise<MiddlewareReport> {
  const started = process.hrtime.bigint();
  const machine = describeMachine();
  const rig = await startMiddlewareRig();
  try {
    progress(`middleware: warm-up, one loop of ${mode.warmUpSteps} steps per framework, plain and wrapped`);
    for (const framework of MIDDLEWARE_FRAMEWORKS) for (const wrapped of [false, true]) await runOnce(rig, framework, mode.warmUpSteps, wrapped);
    const cases: MiddlewareLoopCase[] = [];
    for (const [loopSteps, runs] of [
      [mode.shortSteps, mode.shortRuns],
      [mode.longSteps, mode.longRuns],
    ] as const) {
      progress(`middleware: ${runs} loop${runs === 1 ? '' : 's'} of ${loopSteps} steps per framework, plain and wrapped, interleaved`);
      const records = new Map<string, RunRecord[]>();
      for (let round = 0; round < runs; round += 1) {
        for (const frameworkIndex of interleavedOrder(MIDDLEWARE_FRAMEWORKS.length, round)) {
          const framework = MIDDLEWARE_FRAMEWORKS[frameworkIndex]!;
          for (const variant of interleavedOrder(2, round)) {
            const wrapped = variant === 1;
            const key = `${framework} ${wrapped}`;
            const list = records.get(key) ?? [];
            list.push(await runOnce(rig, framework, loopSteps, wrapped));
            records.set(key, list);
          }
        }
      }
      for (const framework of MIDDLEWARE_FRAMEWORKS) {
        const plain = records.get(`${framework} false`) ?? [];
        cases.push(loopCase(framework, false, loopSteps, plain), loopCase(framework, true, loopSteps, records.get(`${framework} true`) ?? [], plain));
      }
    }
    return {
      date: new Date().toISOString(),
      durationSeconds: Number(process.hrtime.bigint() - started) / 1e9,
      machine,
      model: MIDDLEWARE_MODEL.name,
      window: MIDDLEWARE_WINDOW,
      replyLimit: MIDDLEWARE_REPLY_LIMIT,
      pipeline: MIDDLEWARE_PIPELINE,
      packages: packageVersions(),
      toolResultTokens: new TokenCounter(createTokenizer('o200k_base')).countText(moduleText(0, 0)),
      warmUpSteps: mode.warmUpSteps,
      cases,
    };
  } finally {
    await rig.close();
  }
}
