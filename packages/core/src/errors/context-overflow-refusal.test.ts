import { describe, expect, it } from 'vitest';
import { readContextOverflowRefusal } from './context-overflow-refusal.js';

describe('readContextOverflowRefusal', () => {
  it("reads llama.cpp's, OpenAI's and Anthropic's overflow refusals, their counts and windows; other 400s are none", () => {
    expect(
      readContextOverflowRefusal(
        400,
        '{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5012,"n_ctx":4096}}',
      ),
    ).toEqual({ promptTokens: 5012, window: 4096 });
    expect(
      readContextOverflowRefusal(
        400,
        "This model's maximum context length is 4096 tokens. However, you requested 4200 tokens (4100 in the messages, 100 in the completion).",
      ),
    ).toEqual({ promptTokens: 4100, window: 4096 });
    expect(
      readContextOverflowRefusal(400, '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 5000 tokens > 4096 maximum"}}'),
    ).toEqual({ promptTokens: 5000, window: 4096 });
    expect(readContextOverflowRefusal(413, 'context length exceeded')).toEqual({});
    expect(readContextOverflowRefusal(400, '{"error":"invalid model name"}')).toBeUndefined();
    expect(readContextOverflowRefusal(500, 'maximum context length')).toBeUndefined();
  });
});
