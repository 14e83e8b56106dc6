#!/usr/bin/env node
// The official MCP Inspector CLI (@modelcontextprotocol/inspector-cli) lists the tools and calls each
// one, one CLI process per call, the way a person checks a server from a shell.
//
//   node inspector-tour.mjs <url> <token|-> <calls.json>
//
// calls.json: [{"tool", "args", "expect": "ok" | "<error_type>"}]. A call passes when the CLI exits 0
// with the result as JSON, isError matches expect and an error's text starts with '<error_type>: '.
// Every listed tool must be called. Prints a JSON summary {ok, tools, calls}; exits 1 on a failure.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail } from './lib/summary.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, 'node_modules/@modelcontextprotocol/inspector-cli/build/cli.js');
const [url, token, callsFile] = process.argv.slice(2);
if (!url || !token || !callsFile) fail('usage: inspector-tour.mjs <url> <token|-> <calls.json>', 2);
const calls = JSON.parse(readFileSync(callsFile, 'utf8'));
const auth = token === '-' ? [] : ['--header', `Authorization: Bearer ${token}`];

/** One Inspector CLI run; its stdout is the JSON result. */
function inspect(args) {
  return new Promise((resolve) => {
    // inspector-cli 1.0.3 reads ../package.json relative to the working directory: run it from build/
    execFile(process.execPath, [cli, '--cli', url, '--transport', 'http', ...auth, ...args],
      { cwd: dirname(cli), timeout: 60_000, maxBuffer: 16 << 20, env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}` } },
      (err, stdout, stderr) => resolve({ err, stdout, stderr }));
  });
}

/** --tool-arg key=value: the CLI JSON-parses a value and keeps it a string when that fails. */
function toolArgs(args) {
  return Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`]);
}

const listed = await inspect(['--method', 'tools/list']);
if (listed.err) fail(new Error(`inspector tools/list failed: ${listed.stderr || listed.err.message}`));
const tools = JSON.parse(listed.stdout).tools.map((t) => t.name);
const results = [];
for (const call of calls) {
  const r = await inspect(['--method', 'tools/call', '--tool-name', call.tool, ...toolArgs(call.args ?? {})]);
  const problems = [];
  let result = null;
  if (r.err) {
    problems.push(`the inspector failed: ${(r.stderr || r.err.message).trim().slice(-600)}`);
  } else {
    result = JSON.parse(r.stdout);
    const text = (result.content ?? []).map((b) => b.text ?? '').join('\n');
    if (call.expect === 'ok' && result.isError) problems.push(`expected success, got ${text.slice(0, 300)}`);
    if (call.expect !== 'ok' && !(result.isError && text.startsWith(`${call.expect}: `))) {
      problems.push(`expected ${call.expect}, got ${text.slice(0, 300)}`);
    }
  }
  results.push({ tool: call.tool, expect: call.expect, ok: problems.length === 0, problems });
}
const uncalled = tools.filter((t) => !calls.some((c) => c.tool === t));
const summary = { ok: results.every((r) => r.ok) && uncalled.length === 0, tools, uncalled, calls: results };
console.log(JSON.stringify(summary, null, 2));
process.exit(summary.ok ? 0 : 1);
