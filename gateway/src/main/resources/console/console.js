// The operator's console. Reads the admin API with the operator's token in the Authorization
// header (never a cookie) and follows the live view over SSE, read with fetch because EventSource
// cannot send a header. No framework, no build step: this file is served as it is from the jar.
'use strict';

const state = { token: '', live: null, abort: null };

const $ = (sel) => document.querySelector(sel);

function headers(extra) {
  const h = Object.assign({ Accept: 'application/json' }, extra || {});
  if (state.token) h.Authorization = 'Bearer ' + state.token;
  return h;
}

async function api(path, init) {
  const res = await fetch(path, Object.assign({ headers: headers() }, init || {}));
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error((body.error && body.error.message) || ('HTTP ' + res.status));
  return body;
}

function say(text, isError) {
  const s = $('#status');
  s.textContent = text;
  s.className = isError ? 'error' : '';
}

function cell(row, text, cls) {
  const td = document.createElement('td');
  td.textContent = text == null ? '' : String(text);
  if (cls) td.className = cls;
  row.appendChild(td);
  return td;
}

function emptyRow(tbody, columns, text) {
  const tr = document.createElement('tr');
  const td = cell(tr, text, 'empty');
  td.colSpan = columns;
  tbody.appendChild(tr);
}

function duration(ms) {
  if (ms < 1000) return ms + ' ms';
  const s = Math.floor(ms / 1000);
  if (s < 60) return (ms / 1000).toFixed(1) + ' s';
  const m = Math.floor(s / 60);
  return m < 60 ? m + ' min ' + (s % 60) + ' s' : Math.floor(m / 60) + ' h ' + (m % 60) + ' min';
}

function renderLive() {
  const live = state.live;
  if (!live) return;
  const skew = Date.now() - live.at;
  const calls = $('#calls tbody');
  // a push rebuilds the rows: keyboard focus stays on the same call's button
  const focused = document.activeElement && document.activeElement.closest('#calls tr');
  const focusCall = focused ? focused.dataset.key : null;
  calls.replaceChildren();
  $('#calls-count').textContent = '(' + live.calls.length + ')';
  if (live.calls.length === 0) emptyRow(calls, 8, 'No call is running.');
  for (const c of live.calls) {
    const tr = document.createElement('tr');
    // a stateless (2026-07-28) call has no session: its own id, unique in the cluster, names it
    tr.dataset.key = c.stateless ? c.statelessId : c.callId + ' ' + c.sessionId;
    const tool = cell(tr, c.tool);
    if (c.stateless) {
      const tag = document.createElement('span');
      tag.className = 'tag';
      tag.textContent = 'stateless, no session';
      tool.append(' ', tag);
    }
    cell(tr, c.connectionId);
    cell(tr, c.sql, 'sql');
    const elapsed = cell(tr, duration(Math.max(0, Date.now() - skew - c.startedAt)), 'elapsed');
    elapsed.dataset.started = String(c.startedAt + skew);
    cell(tr, c.progress);
    cell(tr, c.principal);
    cell(tr, c.node);
    const td = cell(tr, '');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'cancel';
    b.textContent = c.cancelled ? 'Cancelling…' : 'Cancel';
    b.disabled = !!c.cancelled;
    b.setAttribute('aria-label', 'Cancel ' + c.tool + ' call ' + c.callId + ' of ' + c.principal);
    b.addEventListener('click', () => cancel(c, b));
    td.appendChild(b);
    calls.appendChild(tr);
    if (focusCall === tr.dataset.key) b.focus();
  }
  const sessions = $('#sessions tbody');
  sessions.replaceChildren();
  $('#sessions-count').textContent = '(' + live.sessions.length + ' on ' + live.nodes.length + ' node'
    + (live.nodes.length === 1 ? '' : 's') + ')';
  if (live.sessions.length === 0) emptyRow(sessions, 8, 'No session is open.');
  for (const s of live.sessions) {
    const tr = document.createElement('tr');
    tr.dataset.sessionId = s.sessionId;
    cell(tr, s.principal);
    cell(tr, s.client && s.client.name);
    cell(tr, s.client && s.client.version);
    cell(tr, duration(Math.max(0, Date.now() - skew - s.openedAt)));
    cell(tr, duration(s.idleMs));
    cell(tr, s.calls);
    cell(tr, s.inFlight);
    cell(tr, s.node);
    sessions.appendChild(tr);
  }
}

async function cancel(call, button) {
  button.disabled = true;
  button.textContent = 'Cancelling…';
  try {
    await api('/console/api/cancel', {
      method: 'POST',
      headers: headers({ 'Content-Type': 'application/json' }),
      body: JSON.stringify(call.stateless ? { statelessId: call.statelessId }
        : { sessionId: call.sessionId, callId: call.callId }),
    });
    say('Cancelled ' + call.tool + ' call ' + call.callId + '.');
  } catch (e) {
    say('Cancel failed: ' + e.message, true);
    button.disabled = false;
    button.textContent = 'Cancel';
  }
}

// One SSE stream: "event: live" carries the whole live view each time it changes.
async function follow() {
  if (state.abort) state.abort.abort();
  const abort = new AbortController();
  state.abort = abort;
  const res = await fetch('/console/api/stream', { headers: headers({ Accept: 'text/event-stream' }),
    signal: abort.signal });
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    throw new Error((body.error && body.error.message) || ('HTTP ' + res.status));
  }
  say('Connected: live view follows the gateway.');
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data += line.slice(5).trim();
      }
      if (event === 'live' && data) {
        state.live = JSON.parse(data);
        renderLive();
        loadLimits(); // budgets move with the calls that start and end
      } else if (event === 'charts' && data) {
        renderCharts(JSON.parse(data));
        loadConnections(); // pools and scans move too; the charts' beat is often enough
      }
    }
  }
  if (!abort.signal.aborted) {
    say('The live stream ended; reconnecting…', true);
    setTimeout(() => connect(), 1000);
  }
}

async function loadHistory() {
  const form = new FormData($('#history-filter'));
  const q = new URLSearchParams();
  for (const [k, v] of form.entries()) if (v) q.set(k, v);
  q.set('limit', '100');
  const tbody = $('#history tbody');
  try {
    const h = await api('/console/api/history?' + q.toString());
    tbody.replaceChildren();
    if (h.records.length === 0) emptyRow(tbody, 8, 'Nothing in the audit trail matches.');
    for (const r of h.records) {
      const tr = document.createElement('tr');
      const refused = r.type === 'http_refused';
      cell(tr, r.time);
      cell(tr, refused ? (r.remote || '') : r.principal);
      cell(tr, refused ? r.method + ' ' + r.path : r.tool);
      cell(tr, r.connectionId);
      cell(tr, refused ? 'refused ' + r.status : r.outcome, 'outcome-' + (refused ? 'refused' : r.outcome));
      cell(tr, refused ? r.reason : [r.errorType, r.errorMessage].filter(Boolean).join(': '));
      cell(tr, r.durationMs);
      cell(tr, r.sql, 'sql');
      tbody.appendChild(tr);
    }
  } catch (e) {
    say('History: ' + e.message, true);
  }
}

async function rescan(id, button) {
  button.disabled = true;
  try {
    await api('/console/api/rescan', { method: 'POST', headers: headers({ 'Content-Type': 'application/json' }),
      body: JSON.stringify({ connectionId: id }) });
    say('Catalog scan of ' + id + ' started.');
  } catch (e) {
    say('Rescan failed: ' + e.message, true);
  }
  setTimeout(loadConnections, 1000);
}

/** SQLite worker processes: pid, jobs served, busy; and how many were replaced. */
function workers(x) {
  if (!Array.isArray(x.workers)) {
    return '';
  }
  const each = x.workers.map(w => 'pid ' + w.pid + ' (' + w.jobs + ' jobs' + (w.busy ? ', busy' : '') + ')');
  return each.join(', ') + '; ' + x.restarts + (x.restarts === 1 ? ' restart' : ' restarts');
}

async function loadConnections() {
  const tbody = $('#connections tbody');
  try {
    const c = await api('/console/api/connections');
    tbody.replaceChildren();
    for (const x of c.connections || []) {
      const tr = document.createElement('tr');
      const pool = x.pool || {};
      const cat = x.catalog || {};
      cell(tr, x.id);
      cell(tr, x.driver);
      cell(tr, x.status, x.status === 'up' ? 'outcome-ok' : 'outcome-error');
      cell(tr, [x.flavour, x.serverVersion].filter(Boolean).join(' '));
      // a SQLite pool starts small and grows to its max as calls wait
      cell(tr, pool.size == null ? '' : pool.inUse + ' of ' + pool.size
          + (pool.max != null && pool.max !== pool.size ? ' (up to ' + pool.max + ')' : ''));
      cell(tr, pool.waiting);
      cell(tr, workers(x));
      cell(tr, cat.scanning ? 'scanning…' : cat.snapshotAgeMs != null ? 'scanned ' + duration(cat.snapshotAgeMs) + ' ago'
        : 'not scanned since start');
      cell(tr, x.error || cat.lastError);
      const td = cell(tr, '');
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = 'Rescan';
      b.setAttribute('aria-label', 'Rescan the catalog of ' + x.id);
      b.disabled = !!cat.scanning;
      b.addEventListener('click', () => rescan(x.id, b));
      td.appendChild(b);
      tbody.appendChild(tr);
    }
  } catch (e) {
    say('Connections: ' + e.message, true);
  }
}

function budget(left, limit) {
  if (limit > 0) return left + ' of ' + limit;
  return left == null ? 'unlimited' : left + ' (no limit)';
}

let limitsLoading = false;

async function loadLimits() {
  if (limitsLoading) return;
  limitsLoading = true;
  const tbody = $('#limits tbody');
  try {
    const l = await api('/console/api/limits');
    tbody.replaceChildren();
    for (const x of l.limits || []) {
      const tr = document.createElement('tr');
      cell(tr, x.principal);
      cell(tr, budget(x.remaining.queries, x.limits.queriesPerMinute));
      cell(tr, budget(x.remaining.rows, x.limits.rowsPerHour));
      cell(tr, budget(x.inFlight, x.limits.concurrentQueries));
      cell(tr, x.scope === 'cluster' ? 'cluster-wide (in flight: this node)' : 'this node');
      tbody.appendChild(tr);
    }
  } catch (e) {
    say('Limits: ' + e.message, true);
  } finally {
    limitsLoading = false;
  }
}

const SVG = 'http://www.w3.org/2000/svg';

// One line over the 15 minutes; gaps (idle seconds) break it. The caption says what the latest
// value is, so a screen reader hears the figure the line shows.
function drawChart(svg, values, unit) {
  const w = 600, h = 120, top = 14, bottom = 4;
  const max = Math.max(1, ...values.filter((v) => v != null));
  svg.replaceChildren();
  let d = '';
  let pen = false;
  values.forEach((v, i) => {
    if (v == null) { pen = false; return; }
    const x = (i / Math.max(1, values.length - 1)) * w;
    const y = h - bottom - (v / max) * (h - top - bottom);
    // a segment starts with a dot, so a lone busy second between idle ones still shows
    d += (pen ? 'L' : 'M') + x.toFixed(1) + ' ' + y.toFixed(1) + (pen ? '' : 'l0.01 0');
    pen = true;
  });
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', d);
  path.setAttribute('class', 'line');
  svg.appendChild(path);
  const label = document.createElementNS(SVG, 'text');
  label.setAttribute('x', '4');
  label.setAttribute('y', '11');
  label.setAttribute('class', 'axis');
  label.textContent = 'max ' + max + ' ' + unit;
  svg.appendChild(label);
  const last = [...values].reverse().find((v) => v != null);
  const title = document.createElementNS(SVG, 'title');
  title.textContent = 'peak ' + max + ' ' + unit + ', latest ' + (last == null ? 'none' : last + ' ' + unit);
  svg.appendChild(title);
}

function renderCharts(c) {
  drawChart($('#chart-calls'), c.calls, 'calls/s');
  $('#chart-calls').dataset.total = String(c.calls.reduce((a, b) => a + b, 0));
  drawChart($('#chart-p99'), c.p99Ms, 'ms');
  $('#charts-node').textContent = '(node ' + c.node + ')';
}

async function connect() {
  say('Connecting…');
  try {
    await api('/console/api/overview');
  } catch (e) {
    say('Not connected: ' + e.message, true);
    return;
  }
  loadHistory();
  loadConnections();
  loadLimits();
  follow().catch((e) => {
    if (e.name !== 'AbortError') {
      say('Live view lost: ' + e.message + '; reconnecting…', true);
      setTimeout(() => connect(), 2000);
    }
  });
}

document.addEventListener('DOMContentLoaded', () => {
  $('#login').addEventListener('submit', (e) => {
    e.preventDefault();
    state.token = $('#token').value.trim();
    connect();
  });
  $('#history-filter').addEventListener('submit', (e) => {
    e.preventDefault();
    loadHistory();
  });
  // elapsed times move between pushes without asking the server
  setInterval(() => {
    for (const td of document.querySelectorAll('#calls td.elapsed')) {
      td.textContent = duration(Math.max(0, Date.now() - Number(td.dataset.started)));
    }
  }, 1000);
  connect();
});
