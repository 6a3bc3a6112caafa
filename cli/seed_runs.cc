#include "cli/seed_runs.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <thread>

#include "absl/strings/str_format.h"

namespace sendsim::cli {

using scenario::EffectiveKernel;
using scenario::Scenario;
using scenario::WriterSpec;

absl::StatusOr<std::vector<SeedRun>> RunSeeds(const Scenario& s, const std::vector<model::Observer*>& first_seed_extra,
                                              uint32_t threads, const SeedRunFn& run,
                                              const SeedProgressFn& progress) {
  const size_t writers = s.writers.size();
  const size_t jobs = static_cast<size_t>(s.seeds) * writers;
  std::vector<std::optional<absl::StatusOr<RunResult>>> out(jobs);

  std::mutex mu;  // guards the progress sums and the progress callback
  std::vector<uint64_t> done_per_job(jobs, 0);
  uint64_t messages_done = 0;
  size_t runs_done = 0;
  const uint64_t messages_total = s.messages * jobs;

  std::atomic<size_t> next{0};
  // Lowest failed job so far: jobs above it are skipped, jobs below it run.
  std::atomic<size_t> first_failed{jobs};
  auto worker = [&] {
    for (size_t j = next++; j < jobs; j = next++) {
      if (j > first_failed.load()) continue;
      const size_t seed_index = j / writers;
      const size_t w = j % writers;
      Scenario sj = s;
      sj.seed = s.seed + seed_index;
      model::Observer* extra =
          seed_index == 0 && w < first_seed_extra.size() ? first_seed_extra[w] : nullptr;
      absl::StatusOr<RunResult> r = run(sj, s.writers[w], extra, [&, j](uint64_t done, uint64_t) {
        std::lock_guard<std::mutex> lock(mu);
        messages_done += done - done_per_job[j];
        done_per_job[j] = done;
        if (progress) progress(runs_done, jobs, messages_done, messages_total);
      });
      if (!r.ok()) {
        size_t seen = first_failed.load();
        while (j < seen && !first_failed.compare_exchange_weak(seen, j)) {
        }
      }
      out[j] = std::move(r);
      std::lock_guard<std::mutex> lock(mu);
      ++runs_done;
      if (progress) progress(runs_done, jobs, messages_done, messages_total);
    }
  };
  size_t n = threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  n = std::min(n, jobs);
  if (n <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (size_t i = 0; i < n; ++i) pool.emplace_back(worker);
    for (std::thread& t : pool) t.join();
  }

  if (const size_t f = first_failed.load(); f < jobs) {
    const absl::Status& st = out[f]->status();
    const WriterSpec& w = s.writers[f % writers];
    const std::string where = s.seeds > 1 ? absl::StrFormat(" (seed %d)", s.seed + f / writers) : "";
    return absl::Status(st.code(), absl::StrFormat("%s on %s%s: %s", w.writer, EffectiveKernel(w, s.kernel), where,
                                                   st.message()));
  }
  std::vector<SeedRun> runs(s.seeds);
  for (size_t i = 0; i < runs.size(); ++i) {
    runs[i].seed = s.seed + i;
    for (size_t w = 0; w < writers; ++w) runs[i].results.push_back(*std::move(*out[i * writers + w]));
  }
  return runs;
}

}  // namespace sendsim::cli
