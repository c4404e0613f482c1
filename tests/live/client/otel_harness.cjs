// What the OpenTelemetry scripts here share (otel_replay_test.cjs, record_otel_trace.cjs): an
// OTLP/HTTP receiver, the official instrumentation of the `openai` client, and `squall serve`
// as a child process. CommonJS, because the instrumentations patch modules as `require`
// loads them: call instrument() before requiring `openai`.
'use strict';
const fs = require('node:fs');
const http = require('node:http');
const { spawn } = require('node:child_process');
const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base');
const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node');
const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http');
const { registerInstrumentations } = require('@opentelemetry/instrumentation');
const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');
const { OpenAIInstrumentation } = require('@opentelemetry/instrumentation-openai');

// An OTLP/HTTP receiver: each export request's JSON body, as it came.
async function receiver() {
  const bodies = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString());
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, bodies, port: server.address().port };
}

function instrument(port) {
  const exporter = new OTLPTraceExporter({ url: `http://127.0.0.1:${port}/v1/traces` });
  const provider = new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
  provider.register();
  registerInstrumentations({
    instrumentations: [
      new HttpInstrumentation({
        ignoreOutgoingRequestHook: (options) => String(options.port) === String(port),  // the exporter's own
        headersToSpanAttributes: { client: { responseHeaders: ['retry-after', 'retry-after-ms'] } },
      }),
      new OpenAIInstrumentation(),
    ],
  });
  return provider;
}

async function serve(squall, scenario, report) {
  const child = spawn(squall, ['serve', scenario, '--out', report],
                      { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
      if (text.includes('\n')) resolve(text.split('\n')[0].trim());
    });
    child.on('exit', (code) => reject(new Error(`squall serve exited with ${code} before printing its URL`)));
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return { url, exited };
}

// The receiver's requests as the OpenTelemetry Collector's file exporter writes them: one
// ExportTraceServiceRequest a line.
function writeCollectorFile(file, bodies) {
  fs.writeFileSync(file, bodies.map((b) => JSON.stringify(JSON.parse(b))).join('\n') + '\n');
}

module.exports = { receiver, instrument, serve, writeCollectorFile };
