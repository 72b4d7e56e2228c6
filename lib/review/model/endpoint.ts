/**
 * Where a model reviewer may be asked (docs/review.md "Model reviewer"): code leaves the machine
 * only where the person said so. A loopback endpoint is on this machine; any other host needs
 * `revtrail trust` for that exact endpoint, so a clone's config cannot send the code elsewhere.
 */
import { isIP } from 'node:net';

export type EndpointCheck = { ok: true; url: URL; loopback: boolean } | { ok: false; why: string };

/** Whether `host` (a URL's hostname, brackets removed) names this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || h === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(h);
  return false;
}

export function checkEndpoint(endpoint: string): EndpointCheck {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return { ok: false, why: 'not a URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, why: `${url.protocol} is not http: or https:` };
  if (url.username || url.password)
    return { ok: false, why: 'a URL with credentials in it (give a key in REVTRAIL_MODEL_API_KEY instead)' };
  return { ok: true, url, loopback: isLoopbackHost(url.hostname.replace(/^\[|\]$/g, '')) };
}

/** The chat completions URL of an OpenAI-compatible base (`http://127.0.0.1:8080/v1` or the full path). */
export function chatCompletionsUrl(url: URL): string {
  const base = url.href.replace(/\/+$/, '');
  return base.endsWith('/chat/completions') ? base : `${base}/chat/completions`;
}

/** True for a valid endpoint on this machine (what needs no trust). */
export function checkEndpointLoopback(endpoint: string): boolean {
  const checked = checkEndpoint(endpoint);
  return checked.ok && checked.loopback;
}
