#!/usr/bin/env node
// Drives the operator's console (/console) in headless Chromium while an agent works through the
// official TypeScript SDK: the page must show the agent's session and its running query, a
// keyboard press on the row's Cancel button must stop the call, and the agent must be told in
// band. Screenshots of each step go to <outDir>. The caller watches the engine and creates
// <outDir>/<marker>.running once the statement runs there; the script cancels only after that.
//
//   node console-browser.mjs <gatewayBase> <agentToken> <operatorToken> <connectionId> <sql> <marker> <outDir>
//
// Prints one JSON object: {sessionSeen, callSeen, callGone, cancelMs, agentResult, a11y, screenshots}.
// Exits 1 when a step fails (the message says which).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from './lib/browser.mjs';
import { fail } from './lib/summary.mjs';

const [base, agentToken, operatorToken, connectionId, sql, marker, outDir] = process.argv.slice(2);
if (!outDir) {
  fail('usage: console-browser.mjs <gatewayBase> <agentToken> <operatorToken> <connectionId> <sql> <marker> <outDir>', 2);
}
mkdirSync(outDir, { recursive: true });
const CLIENT = 'console-test-agent';
const STEP_MS = 15_000;
const summary = { screenshots: [] };

const transport = new StreamableHTTPClientTransport(new URL(base + '/mcp'), {
  requestInit: { headers: { Authorization: `Bearer ${agentToken}` } }
});
const agent = new Client({ name: CLIENT, version: '7.1.2' });
const browser = await launchBrowser();
try {
  await agent.connect(transport);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const shot = async (name) => {
    const path = join(outDir, name + '.png');
    await page.screenshot({ path, fullPage: true });
    summary.screenshots.push(path);
  };
  await page.goto(base + '/console');
  // the operator types the token into the labelled field and submits with the keyboard
  await page.getByLabel('Operator token').fill(operatorToken);
  await page.getByLabel('Operator token').press('Enter');
  await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor({ timeout: STEP_MS });

  const sessionRow = page.locator('#sessions tbody tr', { hasText: CLIENT });
  await sessionRow.waitFor({ timeout: STEP_MS });
  summary.sessionSeen = (await sessionRow.innerText()).replace(/\s+/g, ' ').trim();

  const t0 = Date.now();
  const call = agent.callTool({ name: 'sql_execution', arguments: { connectionId, sql } }, CallToolResultSchema,
    { timeout: 120_000 }).then((r) => ({ r, ms: Date.now() - t0 }), (e) => ({ e: String(e), ms: Date.now() - t0 }));
  const callRow = page.locator('#calls tbody tr', { hasText: marker });
  await callRow.waitFor({ timeout: STEP_MS });
  summary.callSeen = (await callRow.innerText()).replace(/\s+/g, ' ').trim();
  // the test harness drops <marker>.running in outDir once pg_stat_activity shows the statement:
  // the cancel then has to stop it at the engine, not before it got there
  const flag = join(outDir, marker + '.running');
  for (const until = Date.now() + STEP_MS; !existsSync(flag);) {
    if (Date.now() > until) throw new Error('the harness never saw the statement running at the engine');
    await new Promise((r) => setTimeout(r, 50));
  }
  await page.waitForTimeout(1500); // one more live push: the row shows the query's progress
  summary.callSeen = (await callRow.innerText()).replace(/\s+/g, ' ').trim();
  await shot('1-running-query');

  // keyboard only: focus the row's Cancel button and press Enter
  const cancel = callRow.getByRole('button', { name: /^Cancel sql_execution call/ });
  await cancel.focus();
  await page.keyboard.press('Enter');
  const cancelledAt = Date.now();
  await callRow.waitFor({ state: 'detached', timeout: STEP_MS });
  summary.callGone = true;
  const outcome = await call;
  summary.cancelMs = Date.now() - cancelledAt;
  summary.agentElapsedMs = outcome.ms;
  if (outcome.e) throw new Error(`the agent's call failed instead of answering in band: ${outcome.e}`);
  summary.agentResult = outcome.r;
  await page.getByRole('status').filter({ hasText: 'Cancelled' }).waitFor({ timeout: STEP_MS });
  await page.locator('#h-history').scrollIntoViewIfNeeded();
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.locator('#history tbody tr', { hasText: 'cancelled' }).first().waitFor({ timeout: STEP_MS });
  // the charts come over the same stream every 5 s: wait for one that counts the cancelled call
  await page.waitForFunction(() => Number(document.querySelector('#chart-calls').dataset.total || 0) >= 1, null,
    { timeout: STEP_MS });
  summary.charts = await page.locator('#chart-calls title').textContent();
  summary.chartedCalls = Number(await page.locator('#chart-calls').getAttribute('data-total'));
  await shot('2-after-cancel');

  // basic accessibility: every form control has a label, every button an accessible name
  summary.a11y = await page.evaluate(() => {
    const unlabelled = [...document.querySelectorAll('input, select')]
      .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')).map((el) => el.id || el.name);
    const unnamed = [...document.querySelectorAll('button')].filter((b) => !(b.getAttribute('aria-label')
      || b.textContent.trim())).length;
    return { unlabelled, unnamedButtons: unnamed };
  });
  console.log(JSON.stringify(summary, null, 2));
  await transport.terminateSession().catch(() => {});
  await agent.close();
} catch (e) {
  summary.failed = String(e && e.stack ? e.stack : e);
  console.log(JSON.stringify(summary, null, 2));
  process.exitCode = 1;
} finally {
  await browser.close();
}
process.exit(process.exitCode ?? 0);
