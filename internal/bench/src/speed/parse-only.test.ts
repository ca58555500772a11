import { describe, expect, it } from 'vitest';
import { parseOnly } from './parse-only.js';
import { SPEED_PARTS } from './speed-report.js';

describe('parseOnly', () => {
  it('takes the whole speed section or a list of its parts', () => {
    expect(parseOnly('speed')).toEqual({ section: 'speed', parts: new Set(SPEED_PARTS) });
    expect(parseOnly('speed:scaling, cli')).toEqual({ section: 'speed', parts: new Set(['scaling', 'cli']) });
  });

  it('takes the serve section and the middleware section', () => {
    expect(parseOnly('serve')).toEqual({ section: 'serve' });
    expect(parseOnly('middleware')).toEqual({ section: 'middleware' });
  });

  it('says what is wrong with anything else', () => {
    expect(parseOnly('compaction')).toMatch(/--only takes "speed", .*, "serve" or "middleware", not "compaction"/);
    expect(parseOnly('middleware:ai-sdk')).toMatch(/--only takes "speed"/);
    expect(parseOnly('serve:latency')).toMatch(/--only takes "speed"/);
    expect(parseOnly('speed:scaling,warp')).toBe('unknown speed part warp (parts: in-process, processes, live-agent, scaling, runtime, pinned, cli, hostile)');
  });
});
