#ifndef SENDSIM_TOOLS_KERNELCMP_CLEANUP_H_
#define SENDSIM_TOOLS_KERNELCMP_CLEANUP_H_

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace sendsim::kernelcmp {

// Undo actions for everything kernelcmp changes on the machine (namespaces,
// sysctls, child processes), run newest first. Shared between the normal
// RAII path and the signal path, so each action runs exactly once whichever
// path gets there first.
class CleanupStack {
 public:
  using Id = uint64_t;

  CleanupStack() = default;
  CleanupStack(const CleanupStack&) = delete;
  CleanupStack& operator=(const CleanupStack&) = delete;
  ~CleanupStack() { RunAll(); }

  Id Push(std::string what, std::function<void()> undo);
  // Runs one action now (normal teardown order); no-op if already run.
  void Run(Id id);
  // Forgets an action without running it (its owner undid the change itself).
  void Cancel(Id id);
  // Runs all remaining actions, newest first.
  void RunAll();

 private:
  std::mutex mu_;
  Id next_id_ = 1;
  std::map<Id, std::pair<std::string, std::function<void()>>> actions_;
};

// Turns SIGINT/SIGTERM/SIGHUP/SIGQUIT into "run the cleanup stack, then exit
// 128+signal". The signals are blocked in every thread created after the
// guard and taken by one sigwait thread, so cleanup never runs inside an
// async signal handler. Process-wide by nature: create one, in main, before
// starting other threads.
class SignalGuard {
 public:
  explicit SignalGuard(CleanupStack* stack);
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;
  ~SignalGuard();

 private:
  CleanupStack* stack_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_CLEANUP_H_
