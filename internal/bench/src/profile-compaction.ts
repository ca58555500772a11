/**
 * `node --cpu-prof internal/bench/dist/profile-compaction.js [provider] [warm|cold] [repetitions] [target]`:
 * compacts the largest SWE-agent fixture over and over with one provider or pipeline, for a CPU
 * profile of just that work; prints the median time and the characters the tokenizer read per run
 * (work that does not depend on how loaded the machine is).
 */
import { join } from 'node:path';
import { TokenCounter, compactWith, createTokenizer, type Tokenizer } from '@ollm/core';
import { ProviderRegistry } from '@ollm/runtime';
import codeAware from '@ollm/plugin-code-aware';
import mask from '@ollm/plugin-mask';
import trim from '@ollm/plugin-trim';
import { readTranscript } from '@ollm/transcripts';
import { defaultFixtureFolder } from './fixture-set.js';
import { median } from './measure.js';

const LARGEST = join('swe-agent-django', 'django__django-13265.traj.json');

async function main(): Promise<void> {
  const [name = 'trim', mode = 'warm', repetitions = '50', target = '0.5'] = process.argv.slice(2);
  const registry = new ProviderRegistry();
  for (const provider of [trim, mask, codeAware]) registry.register(provider);
  const provider = registry.get(name);
  const messages = (await readTranscript(join(defaultFixtureFolder().folder, LARGEST), { format: 'swe-agent' })).conversations[0]!.messages;
  const tokenizer = createTokenizer('o200k_base');
  const read = { calls: 0, characters: 0 };
  const counting: Tokenizer = {
    ...tokenizer,
    countTokens: (text) => {
      read.calls += 1;
      read.characters += text.length;
      return tokenizer.countTokens(text);
    },
  };
  const limit = Math.floor(new TokenCounter(tokenizer).countMessages(messages) * Number(target));
  const times: number[] = [];
  for (let repetition = 0; repetition < Number(repetitions); repetition += 1) {
    const tokens = new TokenCounter(counting);
    if (mode === 'warm') tokens.countMessages(messages);
    read.calls = 0;
    read.characters = 0;
    const started = performance.now();
    await compactWith(provider, messages, { config: { limit }, context: { tokens } });
    times.push(performance.now() - started);
  }
  console.log(`${name} ${mode} to ${target}: median ${median(times).toFixed(2)} ms; tokenizer per run: ${read.calls} calls, ${read.characters} characters`);
}

await main();
