// What the SDK tests share: `squall serve` as a child process, and an agent's log of every
// HTTP attempt its SDK made (through the SDK's `fetch` option) grouped by logical call.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

// Starts `squall serve SCENARIO --out REPORT ARGS...`; `url` resolves with its base URL
// (the first line of its stdout), `exited` with its exit code, `lines` holds its stdout.
export function serve(squall, scenario, reportPath, args = []) {
  const child = spawn(squall, ['serve', scenario, '--out', reportPath, ...args],
                      { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = [];
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.on('line', (line) => {
      lines.push(line);
      if (lines.length === 1) resolve(line);
    });
    child.on('exit', (code) => reject(new Error(`squall serve exited with ${code} before printing its URL`)));
  });
  return { child, url, exited, lines };
}

// `headers` maps a name in the log to a response header: each attempt is logged as
// { sent (ms), status, ...those headers }. call(name, fn) runs one logical call and logs
// its result or error ({ name, status, code, body, message }) and its attempts.
export function attemptLog(headers) {
  const attempts = [];
  const log = {};
  const loggingFetch = async (url, init) => {
    const sent = performance.now();
    const response = await fetch(url, init);
    const attempt = { sent, status: response.status };
    for (const [key, header] of Object.entries(headers)) attempt[key] = response.headers.get(header);
    attempts.push(attempt);
    return response;
  };
  const call = async (name, fn) => {
    const first = attempts.length;
    try {
      log[name] = { result: await fn() };
    } catch (error) {
      log[name] = { error: { name: error.constructor.name, status: error.status, code: error.code ?? null,
                             body: error.error ?? null, message: error.message } };
    }
    log[name].attempts = attempts.slice(first);
  };
  return { fetch: loggingFetch, call, log };
}
