import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { startFakeModelServer, type FakeModelServer, type FakeModelServerOptions } from '@ollm/fake-model-server';
import { tool, type wrapLanguageModel } from 'ai';
import { z } from 'zod';

/** The 4,096-token model every agent test runs against. */
export const SMALL_MODEL = { name: 'small:4k', contextLength: 4096 } as const;

const VERBS = ['compute', 'render', 'parse', 'validate', 'collect', 'resolve', 'format', 'merge'];
const NOUNS = ['Invoice', 'Order', 'Ledger', 'Cart', 'Session', 'Report', 'Shipment', 'Account'];

/** The text of a made-up source file, a few hundred tokens, different for every index. */
export function fileText(index: number): string {
  const lines = [`// src/module-${index}.ts`, `import { helper${index} } from './shared/helper-${index % 7}';`, ''];
  for (let k = 0; k < 6; k += 1) {
    const verb = VERBS[(index + k) % VERBS.length]!;
    const noun = NOUNS[(index * 3 + k) % NOUNS.length]!;
    const name = `${verb}${noun}${index}x${k}`;
    lines.push(
      `export function ${name}(items: readonly ${noun}Item[], limit = ${index * 10 + k}): number {`,
      `  let total = 0;`,
      `  for (const item of items) total += item.amount * item.quantity + helper${index}(item.id, '${noun.toLowerCase()}-${k}');`,
      `  if (total > limit) throw new RangeError('${name}: total ' + total + ' over ' + limit);`,
      `  return total;`,
      `}`,
      '',
    );
  }
  return lines.join('\n');
}

/** A `read_file` tool whose outputs are recorded by call id. */
export function readFileTool() {
  const outputs = new Map<string, string>();
  const read_file = tool({
    description: 'Read a file of the project',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }, { toolCallId }) => {
      const index = Number(/module-(\d+)/.exec(path)?.[1] ?? 0);
      const text = fileText(index);
      outputs.set(toolCallId, text);
      return text;
    },
  });
  return { read_file, outputs };
}

/** The fake server (4,096-token window enforced) and an AI SDK OpenAI-compatible provider pointed at it. */
export async function startFakeProvider(
  options: Omit<FakeModelServerOptions, 'models' | 'enforceWindow'> = {},
): Promise<{ fake: FakeModelServer; model: Parameters<typeof wrapLanguageModel>[0]['model'] }> {
  const fake: FakeModelServer = await startFakeModelServer({ models: [SMALL_MODEL], enforceWindow: true, ...options });
  const provider = createOpenAICompatible({ name: 'fake', baseURL: `${fake.url}/v1` });
  return { fake, model: provider(SMALL_MODEL.name) };
}

/** A temporary folder, removed by `remove`. */
export function temporaryFolder(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'ollm-ai-sdk-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
