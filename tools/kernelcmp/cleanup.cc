#include "tools/kernelcmp/cleanup.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <utility>
#include <vector>

namespace sendsim::kernelcmp {

CleanupStack::Id CleanupStack::Push(std::string what, std::function<void()> undo) {
  std::lock_guard<std::mutex> lock(mu_);
  Id id = next_id_++;
  actions_.emplace(id, std::make_pair(std::move(what), std::move(undo)));
  return id;
}

void CleanupStack::Run(Id id) {
  std::function<void()> undo;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = actions_.find(id);
    if (it == actions_.end()) return;
    undo = std::move(it->second.second);
    actions_.erase(it);
  }
  undo();
}

void CleanupStack::Cancel(Id id) {
  std::lock_guard<std::mutex> lock(mu_);
  actions_.erase(id);
}

void CleanupStack::RunAll() {
  while (true) {
    Id id;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (actions_.empty()) return;
      id = actions_.rbegin()->first;
    }
    Run(id);
  }
}

namespace {
sigset_t GuardedSignals() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&set, s);
  return set;
}
}  // namespace

SignalGuard::SignalGuard(CleanupStack* stack) : stack_(stack) {
  sigset_t set = GuardedSignals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  thread_ = std::thread([this, set] {
    while (!stop_.load()) {
      timespec timeout = {0, 100'000'000};
      int sig = sigtimedwait(&set, nullptr, &timeout);
      if (sig <= 0) continue;
      std::fprintf(stderr, "kernelcmp: caught signal %d, cleaning up\n", sig);
      stack_->RunAll();
      _exit(128 + sig);
    }
  });
}

SignalGuard::~SignalGuard() {
  stop_.store(true);
  thread_.join();
  // Signals stay blocked: a late Ctrl-C must not kill us between here and the
  // CleanupStack's destructor; the process is about to exit anyway.
}

}  // namespace sendsim::kernelcmp
