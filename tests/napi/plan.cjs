// The calls every run of the napi-rs addon makes, with fixed arguments, and what they returned as
// one object: Node's report.cjs and the browser's addon-worker.mjs run the same plan, so their
// results compare directly (tests/napi.test.js). Files go under `dir`.
function runPlan(addon, dir) {
  return {
    sum: addon.parallelSum(1000000, 2),
    written: addon.writeFiles(`${dir}/out`, 24, 2),
    read: addon.readFiles(`${dir}/out`, 2),
    churn: [1, 2].map((threads) => addon.allocChurn(threads, 20000).checksum),
    poolThreads: addon.poolThreads(),
  };
}

module.exports = { runPlan };
