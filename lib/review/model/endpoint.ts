/**
 * Where a model reviewer may be asked (docs/model.md): code leaves the machine
 * only where the person said so. A loopback endpoint is on this machine; any other host needs
 * `revtrail trust` for that exact endpoint, so a clone's config cannot send the code elsewhere.
 * A name (`localhost`, `model.localhost`, any other) is on this machine only if it resolves to
 * loopback addresses alone, and then the request goes to the address that was checked, so what
 * /etc/hosts or DNS says later cannot move it (issue 35: `evil.localhost` in /etc/hosts).
 */
import { isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';

export type EndpointCheck =
  | {
      ok: true;
      url: URL;
      /** An address literal of this machine (`127.0.0.1`, `[::1]`). */
      loopback: boolean;
      /** The host is a name: loopback only once resolved (pinLoopback). */
      name: boolean;
    }
  | { ok: false; why: string };

/** Whether `host` (a URL's hostname, brackets removed) is a loopback address literal. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
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
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return { ok: true, url, loopback: isLoopbackHost(host), name: isIP(host) === 0 };
}

export type Lookup = (host: string) => Promise<Array<{ address: string; family: number }>>;

const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * The URL with its name replaced by the loopback address it resolves to, or null: the name
 * resolves to no address or to one that is not loopback, or the URL is https (its certificate
 * names the host, so the request cannot be sent to a checked address; it needs trust instead).
 * An IPv4 address is taken before an IPv6 one, as local model servers mostly listen on 127.0.0.1.
 */
export async function pinLoopback(url: URL, lookup: Lookup = systemLookup): Promise<URL | null> {
  if (url.protocol !== 'http:') return null;
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = await lookup(url.hostname);
  } catch {
    return null;
  }
  if (addresses.length === 0 || !addresses.every((a) => isLoopbackHost(a.address))) return null;
  const chosen = addresses.find((a) => a.family === 4) ?? addresses[0]!;
  const pinned = new URL(url.href);
  pinned.hostname = chosen.family === 6 ? `[${chosen.address}]` : chosen.address;
  return pinned;
}

/** Where to send requests for `checked` without trust, or null when it is not on this machine. */
export async function loopbackTarget(
  checked: Extract<EndpointCheck, { ok: true }>,
  lookup?: Lookup,
): Promise<URL | null> {
  if (checked.loopback) return checked.url;
  return checked.name ? pinLoopback(checked.url, lookup) : null;
}

/** The chat completions URL of an OpenAI-compatible base (`http://127.0.0.1:8080/v1` or the full path). */
export function chatCompletionsUrl(url: URL): string {
  const base = url.href.replace(/\/+$/, '');
  return base.endsWith('/chat/completions') ? base : `${base}/chat/completions`;
}

/** True for a valid endpoint on this machine (what needs no trust). */
export async function checkEndpointLoopback(endpoint: string): Promise<boolean> {
  const checked = checkEndpoint(endpoint);
  return checked.ok && (await loopbackTarget(checked)) !== null;
}
