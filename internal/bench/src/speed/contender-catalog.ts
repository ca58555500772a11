import type { SpeedContender } from './speed-contender.js';

/** ollm's pipelines the speed section times: trim, the rule pipeline, and fold (the default of `ollm compact`). */
export const OLLM_SPEED_PIPELINES = ['trim', 'mask,code-aware,trim', 'fold'] as const;
export const PEER_CONTENDERS = ['langchain-cached', 'langchain-plain', 'ai-sdk-ladder'] as const;
export const FLOOR_CONTENDER = 'floor';
/** One tree-sitter parse of the code the pipeline parses (added to the floor): new processes, fresh only. */
export const CODE_PARSE_CONTENDER = 'code-parse';
export const ALL_SPEED_CONTENDERS: readonly string[] = [...OLLM_SPEED_PIPELINES, ...PEER_CONTENDERS, FLOOR_CONTENDER];

/**
 * The contender `name`, importing only its family's modules (the cold-process probe loads one
 * contender and nothing else): a peer or the floor by its key, anything else as an ollm pipeline.
 */
export async function loadContender(name: string): Promise<SpeedContender> {
  if (name === FLOOR_CONTENDER) return (await import('./floor-contender.js')).floorContender;
  if (name === CODE_PARSE_CONTENDER) return (await import('./code-parse-contender.js')).codeParseContender();
  if ((PEER_CONTENDERS as readonly string[]).includes(name)) {
    const peers = await import('./peer-contenders.js');
    if (name === 'langchain-cached') return peers.langChainCachedContender;
    if (name === 'langchain-plain') return peers.langChainPlainContender;
    return peers.aiSdkLadderContender;
  }
  return (await import('./ollm-contender.js')).loadOllmContender(name);
}

export async function loadContenders(names: readonly string[]): Promise<SpeedContender[]> {
  const contenders: SpeedContender[] = [];
  for (const name of names) contenders.push(await loadContender(name));
  return contenders;
}
