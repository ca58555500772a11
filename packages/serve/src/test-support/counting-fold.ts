import type { ContextProviderV2 } from '@ollm/core';
import fold from '@ollm/plugin-fold';

/** fold as a proxy stage that counts its compactions (proxies in one process may share one). */
export interface CountingFold {
  readonly stage: ContextProviderV2;
  /** Compactions so far. */
  readonly compactions: number;
}

export function countingFold(): CountingFold {
  const base = fold as ContextProviderV2;
  let compactions = 0;
  return {
    stage: {
      ...base,
      async compress(call) {
        compactions += 1;
        return base.compress(call);
      },
    },
    get compactions() {
      return compactions;
    },
  };
}
