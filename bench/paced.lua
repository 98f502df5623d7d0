-- wrk script for bench/paced.ts: a think time between each answer and the connection's next
-- request, WRK_DELAY_MS on average (wrk waits whole milliseconds, so each pause is the floor or
-- the ceiling of the mean, drawn so the mean holds); the key from WRK_KEY; the figures as one
-- JSON line at the end (latencies in milliseconds, from wrk's own histogram of every answer).
-- WRK_BODY, when set, makes every request a POST of that JSON body (bench/e2e-graphql.ts).
local mean = tonumber(os.getenv("WRK_DELAY_MS") or "0")
local key = os.getenv("WRK_KEY")
if key and key ~= "" then
  wrk.headers["Authorization"] = "Bearer " .. key
end
local body = os.getenv("WRK_BODY")
if body and body ~= "" then
  wrk.method = "POST"
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end

-- at full speed (WRK_DELAY_MS 0, bench/paced.ts `fullSpeed`) no delay hook at all: wrk then
-- sends each next request as soon as the answer is in
if mean > 0 then
  function delay()
    local floor = math.floor(mean)
    if math.random() < mean - floor then
      return floor + 1
    end
    return floor
  end
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    '{"requests":%d,"seconds":%.3f,"p50":%.3f,"p99":%.3f,"non2xx":%d,"failed":%d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, errors.status,
    errors.connect + errors.read + errors.write + errors.timeout))
end
