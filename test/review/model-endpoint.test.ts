/**
 * Which model endpoints are on this machine (lib/review/model/endpoint.ts): address literals by
 * their address, names only by every address they resolve to, and the request then goes to the
 * address checked. The resolver is given as data here; test/review/model-reviewer.test.ts asks
 * the system's for `localhost` against a real server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkEndpoint, loopbackTarget, pinLoopback, type Lookup } from '../../lib/review/model/endpoint.js';

const resolving =
  (table: Record<string, Array<{ address: string; family: number }>>): Lookup =>
  async (host) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found;
  };

const hosts = resolving({
  'evil.localhost': [{ address: '10.255.255.1', family: 4 }],
  'model.localhost': [{ address: '127.0.0.1', family: 4 }],
  'both.localhost': [
    { address: '::1', family: 6 },
    { address: '127.0.0.2', family: 4 },
  ],
  'six.localhost': [{ address: '::1', family: 6 }],
  'mixed.example': [
    { address: '127.0.0.1', family: 4 },
    { address: '192.0.2.7', family: 4 },
  ],
  'box.lan': [{ address: '127.0.1.1', family: 4 }],
});

const target = async (endpoint: string) => {
  const checked = checkEndpoint(endpoint);
  assert.ok(checked.ok, endpoint);
  return (await loopbackTarget(checked, hosts))?.href ?? null;
};

test('a name counts as loopback only when every address it resolves to is; the request goes to the address', async () => {
  assert.equal(await target('http://evil.localhost:8080/v1'), null);
  assert.equal(await target('http://model.localhost:8080/v1'), 'http://127.0.0.1:8080/v1');
  assert.equal(await target('http://both.localhost:8080/v1'), 'http://127.0.0.2:8080/v1');
  assert.equal(await target('http://six.localhost:8080/v1'), 'http://[::1]:8080/v1');
  assert.equal(await target('http://mixed.example/v1'), null);
  assert.equal(await target('http://box.lan:1234/'), 'http://127.0.1.1:1234/');
  assert.equal(await target('http://unknown.localhost/v1'), null);
});

test('address literals decide alone; https names need trust (the certificate names the host)', async () => {
  assert.equal(await target('http://127.0.0.1:8080/v1'), 'http://127.0.0.1:8080/v1');
  assert.equal(await target('http://[::1]:8080/v1'), 'http://[::1]:8080/v1');
  assert.equal(await target('http://0.0.0.0:8080/v1'), null);
  assert.equal(await target('http://10.0.0.1:8080/v1'), null);
  assert.equal(await pinLoopback(new URL('https://model.localhost/v1'), hosts), null);
  assert.equal(await target('https://127.0.0.1/v1'), 'https://127.0.0.1/v1');
});
