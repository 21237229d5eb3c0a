/** The page's login cookie: its name, and reading it from a request's Cookie header. */
export const SESSION_COOKIE = "cardhall_session";

/**
 * The value of one cookie of a Cookie header, if it is there. The header's grammar (RFC 6265: `name=value` pairs
 * separated by `;`) is all a server reading its own one cookie needs; a cookie library would add parsing of
 * attributes that only a Set-Cookie header has.
 */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) {
      try {
        return decodeURIComponent(part.slice(at + 1).trim());
      } catch {
        return undefined; // a malformed value is no cookie of ours
      }
    }
  }
  return undefined;
}
