// End-to-end test of the client-conformance metrics of `squall serve` (docs/live.md,
// "Client conformance"): the official OpenAI Node client (pinned in package.json) as
// client "sdk", and a raw client that misbehaves on purpose as client "raw".
//
//   node tests/live/client/client_conformance_test.mjs SQUALL_BINARY
//
// Through tests/live/scenarios/conformance.json the SDK meets two 429s asking for 1000 ms:
// its 2 default retries (x-stainless-retry-count 1 and 2) must be counted as sdk-layer
// retries, none early. The raw client re-sends a 429's request at once (an early
// application retry), then after the Retry-After (a retry, not early), re-sends a 400
// (a retry against advice) and sends one payload 6 times (a loop). The report's counts
// must equal what the clients logged. Then `squall run` of the same scenario: its
// client_* thresholds are not evaluated (JUnit skipped), and the run exits 0.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { attemptLog, serve } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const scenario = join(here, '..', 'scenarios', 'conformance.json');
const squall = process.argv[2];
assert.ok(squall, 'usage: client_conformance_test.mjs SQUALL_BINARY');
const dir = mkdtempSync(join(process.env.TMPDIR ?? tmpdir(), 'squall-conformance-'));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function sdkClient(baseURL) {
  const { fetch: loggingFetch, call, log } = attemptLog({ retryAfterMs: 'retry-after-ms' });
  const retryCounts = [];
  const headerLoggingFetch = (url, init) => {
    retryCounts.push(new Headers(init.headers).get('x-stainless-retry-count'));
    return loggingFetch(url, init);
  };
  const client = new OpenAI({ baseURL: `${baseURL}/v1`, apiKey: 'sk-squall-test', fetch: headerLoggingFetch,
                              defaultHeaders: { 'x-squall-client': 'sdk' } });
  await call('rate_limited_twice', () => client.chat.completions.create({
    model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'What does squall test?' }] }));
  return { log, retryCounts };
}

// A client that ignores what the server says. Returns what it sent and got.
async function rawClient(baseURL) {
  const sent = [];
  const send = async (content) => {
    const response = await fetch(`${baseURL}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-squall-client': 'raw' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }),
    });
    const body = await response.json();
    sent.push({ content, status: response.status, retryAfterMs: response.headers.get('retry-after-ms'),
                promptTokens: body.usage?.prompt_tokens });
  };
  await send('A');               // call 4: 429, retry-after-ms 1000
  await send('A');               // call 5: at once: an early application retry, 429 again
  await sleep(1100);
  await send('A');               // call 6: after the Retry-After: a retry, not early; 200
  await send('B');               // call 7: 400
  await send('B');               // call 8: a retry of a 400 (against advice); 200
  for (let i = 0; i < 6; ++i) await send('C');  // calls 9-14: one payload 6 times, a loop
  return sent;
}

const server = serve(squall, scenario, join(dir, 'serve.json'));
const baseURL = await server.url;
const sdk = await sdkClient(baseURL);
const raw = await rawClient(baseURL);
assert.equal((await fetch(`${baseURL}/squall/v1/stop`, { method: 'POST' })).status, 200);
assert.equal(await server.exited, 0, `squall serve's thresholds hold:\n${server.lines.join('\n')}`);
const report = JSON.parse(readFileSync(join(dir, 'serve.json'), 'utf8'));

// What the SDK did, as it documents: 429, 429, 200, retry counts 0, 1, 2, each retry at
// least the 1000 ms asked for after the 429 before it.
const attempts = sdk.log.rate_limited_twice.attempts;
assert.deepEqual(attempts.map((a) => a.status), [429, 429, 200]);
assert.deepEqual(sdk.retryCounts, ['0', '1', '2']);
for (const i of [1, 2]) assert.ok(attempts[i].sent - attempts[i - 1].sent >= 1000);
const sdkRow = report.clients.by_client.sdk;
assert.equal(sdkRow.attempts, attempts.length);
assert.equal(sdkRow.logical_requests, 1);
assert.deepEqual(sdkRow.retries, { gateway: 0, sdk: sdk.retryCounts.filter((c) => c !== '0').length,
                                   application: 0 });
assert.deepEqual(sdkRow.early_retries, { gateway: 0, sdk: 0, application: 0 });
assert.equal(sdkRow.retries_against_advice.total, 0);
assert.deepEqual(sdkRow.retry_amplification, { overall: 3, gateway: 1, sdk: 3, application: 1 });
assert.equal(sdkRow.loops, 0);
assert.equal(sdkRow.peak_concurrency, 1);

// What the raw client did, counted exactly.
assert.deepEqual(raw.map((s) => s.status), [429, 429, 200, 400, 200, 200, 200, 200, 200, 200, 200]);
assert.equal(raw[0].retryAfterMs, '1000');
const tokensA = raw[2].promptTokens;
const tokensB = raw[4].promptTokens;
assert.ok(tokensA > 0 && tokensB > 0);
const rawRow = report.clients.by_client.raw;
assert.equal(rawRow.attempts, raw.length);
assert.equal(rawRow.logical_requests, 8);  // A, B and 6 times C (a re-send after a 200 is no retry)
assert.deepEqual(rawRow.retries, { gateway: 0, sdk: 0, application: 3 });
assert.deepEqual(rawRow.early_retries, { gateway: 0, sdk: 0, application: 1 });
assert.equal(rawRow.retries_against_advice.total, 1);
assert.equal(rawRow.retries_against_advice.by_reason.status_400, 1);
assert.equal(rawRow.loops, 1);
assert.equal(rawRow.peak_concurrency, 1);
assert.deepEqual(rawRow.resent_tokens, { gateway: 0, sdk: 0, application: 2 * tokensA + tokensB });
assert.equal(rawRow.retry_amplification.overall, 11 / 8);
assert.equal(report.clients.loop_resends, 5);
assert.equal(report.clients.retry_amplification.overall, Number((14 / 9).toFixed(6)));
assert.ok(report.thresholds.every((t) => t.passed === true), JSON.stringify(report.thresholds));
assert.ok(server.lines.some((line) => line.includes('client raw') && line.includes('against advice 1 (status_400=1)')),
          server.lines.join('\n'));

// The same scenario simulated: its client_* thresholds are not evaluated, never passed.
const junit = join(dir, 'run.xml');
const run = spawnSync(squall, ['run', scenario, '--out', join(dir, 'run.json'), '--report', `junit=${junit}`],
                      { encoding: 'utf8' });
assert.equal(run.status, 0, run.stdout + run.stderr);
assert.match(run.stdout, /client_loops \.*: count==1 {2}not evaluated: not measured \(squall serve only\)/);
const simulated = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
assert.equal(simulated.clients, undefined);
for (const t of simulated.thresholds) {
  assert.equal(t.passed, null);
  assert.equal(t.not_evaluated, 'not measured (squall serve only)');
}
const xml = readFileSync(junit, 'utf8');
assert.match(xml, /<testsuites name="squall" tests="6" failures="0" errors="0" skipped="6">/);
assert.equal((xml.match(/<skipped message="not measured \(squall serve only\)"\/>/g) ?? []).length, 6);
console.log(`client conformance as logged: sdk ${sdkRow.attempts} attempts, raw ${rawRow.attempts} attempts`);
