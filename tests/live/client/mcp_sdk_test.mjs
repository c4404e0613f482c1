// End-to-end test of `squall serve`'s MCP endpoint driven by the official MCP TypeScript
// SDK (@modelcontextprotocol/sdk, the version pinned in package.json, installed by
// scripts/setup.sh with `npm ci`) and its StreamableHTTPClientTransport.
//
//   node tests/live/client/mcp_sdk_test.mjs SQUALL_BINARY
//
// Serves tests/live/scenarios/mcp.json and checks what the SDK did against what it and the
// specification document: the session id of initialize sent back on every request, the
// tools listed, a tool's result, a fault window's isError results (a tool failure is a
// result, not a protocol error), a 404 on an expired session thrown as a
// StreamableHTTPError with code 404 (the SDK does not re-initialize by itself: the
// specification says the client MUST start a new session, so the agent connects again
// with a new transport), an unknown tool's JSON-RPC error (McpError, -32602), and the
// report's counts.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { attemptLog, serve } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const scenario = join(here, '..', 'scenarios', 'mcp.json');
const squall = process.argv[2];
assert.ok(squall, 'usage: mcp_sdk_test.mjs SQUALL_BINARY');

async function connect(url, loggingFetch) {
  const client = new Client({ name: 'squall-mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: loggingFetch });
  await client.connect(transport);
  return { client, transport };
}

// The agent: connects, lists the tools, calls one tool again and again; when its session
// expires (a 404), it connects again, as the specification asks of a client.
async function agent(baseURL) {
  const { fetch: loggingFetch, call, log } = attemptLog({ session: 'mcp-session-id', retryAfter: 'retry-after' });
  const url = `${baseURL}/p/crm/mcp`;
  let { client, transport } = await connect(url, loggingFetch);
  log.sessions = [transport.sessionId];
  log.protocolVersion = transport.protocolVersion;
  await call('list', () => client.listTools());
  const lookup = { name: 'crm_lookup', arguments: { customer: 'c-42' } };
  for (const name of ['ok', 'failed_1', 'failed_2', 'expired']) await call(name, () => client.callTool(lookup));
  if (log.expired.error) {
    await client.close();
    ({ client, transport } = await connect(url, loggingFetch));
    log.sessions.push(transport.sessionId);
  }
  await call('after_reconnect', () => client.callTool(lookup));
  await call('rate_limited', () => client.callTool({ name: 'crm_update', arguments: {} }));
  await call('unknown_tool', () => client.callTool({ name: 'crm_delete', arguments: {} }));
  await client.close();
  return log;
}

function text(result) {
  assert.equal(result.content.length, 1);
  assert.equal(result.content[0].type, 'text');
  return result.content[0].text;
}

function checkSdkBehaviour(log) {
  assert.equal(log.protocolVersion, '2025-11-25');  // the SDK's newest, which squall speaks
  assert.match(log.sessions[0], /^[0-9a-f]{32}$/);
  assert.deepEqual(log.list.result.tools.map((t) => t.name), ['crm_lookup', 'crm_update']);
  assert.deepEqual(log.ok.result, { content: [{ type: 'text', text: '{"status":"ok"}' }], isError: false });
  for (const name of ['failed_1', 'failed_2']) {
    assert.equal(log[name].result.isError, true, name);
    assert.equal(text(log[name].result), 'The tool crm_lookup had an internal error (HTTP 500).');
    assert.deepEqual(log[name].attempts.map((a) => a.status), [200]);  // a result: the SDK does not retry
  }
  // The expired session: HTTP 404, thrown by the transport; then a new session works.
  const expired = log.expired;
  assert.equal(expired.error.name, 'StreamableHTTPError');
  assert.equal(expired.error.code, 404);
  assert.match(expired.error.message, /Session not found/);
  assert.deepEqual(expired.attempts.map((a) => a.status), [404]);
  assert.equal(log.sessions.length, 2);
  assert.notEqual(log.sessions[1], log.sessions[0]);
  assert.deepEqual(log.after_reconnect.result.content, [{ type: 'text', text: '{"status":"ok"}' }]);
  // A 429 is a tool failure too; its Retry-After rides on the HTTP answer.
  assert.equal(log.rate_limited.result.isError, true);
  assert.equal(text(log.rate_limited.result), 'The tool crm_update is rate limited (HTTP 429).');
  assert.equal(log.rate_limited.attempts[0].retryAfter, '2');
  // A tool the server does not have is a protocol error, not a tool failure.
  assert.equal(log.unknown_tool.error.name, 'McpError');
  assert.equal(log.unknown_tool.error.code, -32602);
  assert.match(log.unknown_tool.error.message, /Unknown tool: crm_delete/);
}

function checkReport(reportPath) {
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  const crm = report.providers.crm;
  // Six tools/call requests reached the provider (the unknown tool did not).
  assert.equal(crm.calls, 6);
  assert.equal(crm.by_outcome.success, 2);
  assert.equal(crm.by_outcome.server_error, 2);
  assert.equal(crm.by_outcome.bad_request, 1);  // the 404 that expired the session
  assert.equal(crm.by_outcome.rate_limited, 1);
}

const dir = mkdtempSync(join(process.env.TMPDIR ?? tmpdir(), 'squall-mcp-'));
const reportPath = join(dir, 'report.json');
const server = serve(squall, scenario, reportPath);
const log = await agent(await server.url);
await fetch(`${await server.url}/squall/v1/stop`, { method: 'POST' });
assert.equal(await server.exited, 0);
checkSdkBehaviour(log);
checkReport(reportPath);
console.log('mcp sdk test: ok');
