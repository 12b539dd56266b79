#include "cli/limits_options.h"

#include <malloc.h>

#include "core/core_pool.h"

namespace goalcup {

void add_limit_options(CLI::App& app, Limits& limits) {
  const char* group = "Limits (see docs/LIMITS.md)";
  app.add_option("--max-line-bytes", limits.max_line_bytes, "longest line read")->group(group)->capture_default_str();
  app.add_option("--max-depth", limits.max_depth, "deepest JSON nesting in a line")
      ->group(group)->capture_default_str()->check(CLI::Range(1u, 1024u));
  app.add_option("--max-records", limits.max_records, "most records in a trace")->group(group)->capture_default_str();
  app.add_option("--max-total-bytes", limits.max_total_bytes, "most decompressed bytes in a trace")
      ->group(group)->capture_default_str();
  app.add_option("--max-zstd-window-log", limits.max_zstd_window_log, "largest zstd window, as a power of two")
      ->group(group)->capture_default_str()->check(CLI::Range(10u, 31u));
  app.add_option("--max-zstd-ratio", limits.max_zstd_ratio, "largest decompressed:compressed ratio")
      ->group(group)->capture_default_str();
  app.add_option("--max-archive-members", limits.max_archive_members, "most members scanned in a .tar")
      ->group(group)->capture_default_str();
  app.add_option("--max-walk-depth", limits.max_walk_depth, "deepest folder nesting read in an upload")
      ->group(group)->capture_default_str()->check(CLI::Range(1u, 256u));
  app.add_option("--max-statements", limits.max_statements, "most signed statements checked in a trace")
      ->group(group)->capture_default_str();
  app.add_option("--max-seconds", limits.max_seconds, "longest time spent reading one upload")
      ->group(group)->capture_default_str()->check(CLI::Range(1u, 1u << 30));
  app.add_option("--max-errors", limits.max_errors, "errors found before reading stops")
      ->group(group)->capture_default_str()->check(CLI::Range(1u, 1u << 30));
  app.add_option("--ack-window", limits.ack_window, "how many records back an ack may point")
      ->group(group)->capture_default_str()->check(CLI::Range(1u, 1u << 30));
}

void add_threads_option(CLI::App& app, unsigned& threads) {
  threads = available_cores();
  app.add_option("--threads", threads,
                 "cores kept busy in all: traces of a batch (--jobs) and the work inside each trace share them")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str()
      ->each([](const std::string& n) { CorePool::shared().resize(static_cast<unsigned>(std::stoul(n))); });
}

void bound_allocator() {
  constexpr int kMmapAbove = 1 << 20;
  // Only fails for values above the maximum; 1 MiB is well below it.
  (void)mallopt(M_MMAP_THRESHOLD, kMmapAbove);
}

}  // namespace goalcup
