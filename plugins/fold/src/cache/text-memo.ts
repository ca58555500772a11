/**
 * What is derived from one text (a tool output, a call argument, a message's text), kept while
 * the memo lives: a turn's entry holds one, so making a rendering again (when the conversation
 * around the turn changed the names worth listing) reads each output once, not once per rendering.
 */
export interface TextMemo {
  /** `derive(text)`, computed once per `purpose` and text. `purpose` names every other input of `derive`. */
  of<Value>(purpose: string, text: string, derive: (text: string) => Value): Value;
}

/** No memo: everything is derived again. */
export const NO_MEMO: TextMemo = { of: (_purpose, text, derive) => derive(text) };

export class TextMemoMap implements TextMemo {
  private readonly values = new Map<string, Map<string, unknown>>();

  of<Value>(purpose: string, text: string, derive: (text: string) => Value): Value {
    let byText = this.values.get(purpose);
    if (byText === undefined) {
      byText = new Map();
      this.values.set(purpose, byText);
    }
    if (byText.has(text)) return byText.get(text) as Value;
    const value = derive(text);
    byText.set(text, value);
    return value;
  }
}
