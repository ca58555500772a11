/** What replaces a secret or the credentials of a URL in anything ollm writes or prints. */
export const REDACTED = '[redacted]';

/** Characters that end a URL's authority (`user:password@host:port`) in running text. */
const AUTHORITY_END = new Set([...' \t\n\r\f\v/?#"\'<>\\`{}|^'].map((character) => character.charCodeAt(0)));

/** What a URL's user name and password may hold (RFC 3986: unreserved, sub-delims, `:`, `%`), and `@` as in `a:p@ss@host`. */
const USERINFO = new Set([..."-._~%!$&'()*+,;=:@"].map((character) => character.charCodeAt(0)));

function isUserinfoCode(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code > 0x7f || USERINFO.has(code);
}

function endsAuthority(code: number): boolean {
  return AUTHORITY_END.has(code) || code === 0x85 || code === 0xa0 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029;
}

/**
 * Replaces the credentials of every URL in `text` (`scheme://user:password@host` ->
 * `scheme://[redacted]@host`; a user name alone, which is how tokens are often passed, too), when
 * what stands before the `@` can be credentials (letters, digits, `-._~%!$&'()*+,;=:`).
 * One pass, linear in the text, whatever it holds: each authority is scanned once, up to the
 * first `/`, `?`, `#`, quote or white space, and its credentials end at its last `@`.
 */
export function stripUrlCredentials(text: string): string {
  let separator = text.indexOf('://');
  if (separator < 0) return text;
  let result = '';
  let copied = 0;
  while (separator >= 0) {
    const start = separator + 3;
    let end = start;
    let at = -1;
    // The first character a user name or password cannot hold (`http://]@N.AN` has no credentials).
    let notUserinfo = -1;
    for (; end < text.length; end += 1) {
      const code = text.charCodeAt(end);
      if (endsAuthority(code)) break;
      if (code === 0x40) at = end;
      else if (notUserinfo < 0 && !isUserinfoCode(code)) notUserinfo = end;
    }
    if (at > start && (notUserinfo < 0 || notUserinfo > at)) {
      result += `${text.slice(copied, start)}${REDACTED}`;
      copied = at;
    }
    // The authority ended at a `/` that may be part of the next `://` (its `:` was scanned).
    separator = text.indexOf('://', Math.max(start, end - 1));
  }
  return result + text.slice(copied);
}
