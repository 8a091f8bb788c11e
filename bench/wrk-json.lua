-- wrk hook for ./sling-vt bench: writes the run's summary, latency percentiles (microseconds) and completed
-- responses per wall-clock second (all, and those below status 400: a failed answer is no throughput) as JSON to
-- the file named by the environment variable WRK_JSON_OUT. With WRK_PATHS (paths with their queries, separated by
-- spaces), every request takes one of them at random: a mixed workload in one stream.
local threads = {}
local paths = {}
for p in string.gmatch(os.getenv("WRK_PATHS") or "", "%S+") do table.insert(paths, p) end

function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
end

function init(args)
  per_second = {}
  ok_per_second = {}
  started = os.time()
  -- Each thread its own sequence: every thread's Lua state starts from the same seed otherwise.
  math.randomseed(os.time() * 1000 + (id or 0))
end

if #paths > 0 then
  request = function()
    return wrk.format(nil, paths[math.random(#paths)])
  end
end

function response(status, headers, body)
  local t = os.time()
  per_second[t] = (per_second[t] or 0) + 1
  if status < 400 then
    ok_per_second[t] = (ok_per_second[t] or 0) + 1
  end
end

done = function(summary, latency, requests)
  local out = os.getenv("WRK_JSON_OUT")
  if out == nil or out == "" then return end
  local buckets, ok_buckets, start = {}, {}, nil
  for _, thread in ipairs(threads) do
    local s = thread:get("started")
    if s ~= nil and (start == nil or s < start) then start = s end
    local ps = thread:get("per_second") or {}
    for t, n in pairs(ps) do buckets[t] = (buckets[t] or 0) + n end
    local ok = thread:get("ok_per_second") or {}
    for t, n in pairs(ok) do ok_buckets[t] = (ok_buckets[t] or 0) + n end
  end
  local parts, ok_parts = {}, {}
  for t, n in pairs(buckets) do table.insert(parts, string.format('"%d":%d', t, n)) end
  for t, n in pairs(ok_buckets) do table.insert(ok_parts, string.format('"%d":%d', t, n)) end
  local f = assert(io.open(out, "w"))
  local e = summary.errors
  f:write(string.format(
    '{"duration_us":%d,"requests":%d,"bytes":%d,"started":%d,"per_second":{%s},"ok_per_second":{%s},' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"min":%d,"max":%d,"mean":%.1f,"stdev":%.1f,"p50":%d,"p90":%d,"p99":%d,"p999":%d}}\n',
    summary.duration, summary.requests, summary.bytes, start or 0, table.concat(parts, ","), table.concat(ok_parts, ","),
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.min, latency.max, latency.mean, latency.stdev,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9)))
  f:close()
end
