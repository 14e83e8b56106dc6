-- wrk script: POSTs one MCP tools/call per request, rotating over already initialized MCP sessions.
--   MCP_SESSIONS  file with one Mcp-Session-Id per line ("-" for a server that issues none)
--   MCP_BODY      file with the JSON-RPC tools/call body
--   MCP_EXPECT    text every good answer contains (e.g. the count), default none
-- A call is counted bad when the status is not 200, the body carries "isError":true or a JSON-RPC
-- error, or MCP_EXPECT is missing; done() prints one RESULT line the harness parses.
local threads = {}
local counter = 1

function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

local function read_all(path)
  local f = assert(io.open(path, "r"), "cannot open " .. tostring(path))
  local s = f:read("*a")
  f:close()
  return s
end

function init(args)
  sessions = {}
  for line in io.lines(os.getenv("MCP_SESSIONS")) do
    if line ~= "" then table.insert(sessions, line) end
  end
  body = read_all(os.getenv("MCP_BODY")):gsub("%s+$", "")
  expect = os.getenv("MCP_EXPECT") or ""
  -- threads start at different sessions so consecutive requests land on different sessions
  idx = (tid * 7) % #sessions
  bad = 0
  first_bad = ""
end

function request()
  idx = idx % #sessions + 1
  local headers = {
    ["Content-Type"] = "application/json",
    ["Accept"] = "application/json, text/event-stream",
    ["MCP-Protocol-Version"] = "2025-06-18",
  }
  local sid = sessions[idx]
  if sid ~= "-" then headers["Mcp-Session-Id"] = sid end
  return wrk.format("POST", wrk.path, headers, body)
end

function response(status, headers, resp)
  if status ~= 200 or resp:find('"isError":true', 1, true) or resp:find('"error":{', 1, true)
      or (expect ~= "" and not resp:find(expect, 1, true)) then
    bad = bad + 1
    if first_bad == "" then first_bad = status .. " " .. resp:sub(1, 300):gsub("%s", " ") end
  end
end

function done(summary, latency, requests)
  local nbad, sample = 0, ""
  for _, t in ipairs(threads) do
    nbad = nbad + (t:get("bad") or 0)
    local fb = t:get("first_bad")
    if sample == "" and fb and fb ~= "" then sample = fb end
  end
  local errs = summary.errors
  io.write(string.format("RESULT calls=%d secs=%.3f p50_us=%d p90_us=%d p99_us=%d max_us=%d bad=%d sockerr=%d\n",
    summary.requests, summary.duration / 1e6, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency.max, nbad,
    errs.connect + errs.read + errs.write + errs.timeout + errs.status))
  -- the tail's shape: where between p90 and p99.9 the latency climbs
  local tail = "TAIL"
  for _, p in ipairs({90, 95, 97, 98, 99, 99.5, 99.9}) do
    tail = tail .. string.format(" p%s=%.2f", p, latency:percentile(p) / 1000)
  end
  io.write(tail .. " ms\n")
  if sample ~= "" then io.write("FIRST_BAD " .. sample .. "\n") end
end
