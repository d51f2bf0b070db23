/**
 * Checking the client's `baseUrl`: https only (docs/api-notes.md, "Authentication"), with plain http allowed
 * explicitly for loopback hosts (a local emulator). Nothing is ever downgraded or upgraded silently.
 */
import { isIPv4 } from "node:net";
import { CustodyConfigurationError, CustodyErrorCode } from "../errors";

/**
 * The normalised base URL: scheme, host, port and an optional path prefix, without a trailing slash.
 *
 * @throws {CustodyConfigurationError} `ERR_CUSTODY_INSECURE_URL` for `http://` to a non-loopback host;
 *   `ERR_CUSTODY_INVALID_CONFIG` when the URL is not absolute, has credentials, a query or a fragment, or
 *   already ends in `/api/v1` (endpoint paths carry it).
 */
export function parseBaseUrl(baseUrl: unknown): string {
  if (typeof baseUrl !== "string" || baseUrl.trim() === "") {
    throw invalid("baseUrl is required: the service's absolute https:// URL, e.g. https://api.example.com");
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw invalid(`baseUrl ${JSON.stringify(baseUrl)} is not an absolute URL (e.g. https://api.example.com)`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw invalid(`baseUrl must use https:// (got ${url.protocol}//)`);
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    throw new CustodyConfigurationError(
      CustodyErrorCode.INSECURE_URL,
      `baseUrl ${url.origin} uses plain http; the custody API requires https://. ` +
        "Plain http is allowed only for loopback hosts (localhost, 127.0.0.0/8, ::1), e.g. a local emulator.",
    );
  }
  // Credentials in the URL would end up in logs and error messages.
  if (url.username !== "" || url.password !== "") {
    throw invalid("baseUrl must not contain credentials; pass the token as accessToken");
  }
  if (url.search !== "" || url.hash !== "") {
    throw invalid(`baseUrl must not have a query string or fragment (got ${url.origin}${url.pathname}…)`);
  }
  let path = url.pathname;
  if (path.endsWith("/")) path = path.slice(0, -1);
  if (/\/api\/v1$/.test(path)) {
    throw invalid(
      `baseUrl must not end in /api/v1 (got ${url.origin}${path}); endpoint paths include it, ` +
        `so pass ${url.origin}${path.slice(0, -"/api/v1".length)}`,
    );
  }
  return url.origin + path;
}

/** `localhost`, any 127.0.0.0/8 address, or `::1`. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === "localhost" || host === "[::1]" || host === "::1") return true;
  return isIPv4(host) && host.startsWith("127.");
}

function invalid(message: string): CustodyConfigurationError {
  return new CustodyConfigurationError(CustodyErrorCode.INVALID_CONFIG, message);
}
