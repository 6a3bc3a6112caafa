#include "netdev/host_lock.h"

#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"

namespace sendsim::netdev {
namespace {

std::string LockPath(const char* name) { return ::testing::TempDir() + "/" + name; }

TEST(HostLock, ASecondHolderIsRefusedAndNamesTheFirst) {
  const std::string path = LockPath("refused.lock");
  absl::StatusOr<HostLock> first = HostLock::Acquire(path, 0);
  ASSERT_TRUE(first.ok()) << first.status();
  std::string written;
  std::getline(std::ifstream(path), written);
  EXPECT_EQ(written, absl::StrFormat("%d", getpid()));
  // flock belongs to an open file description: a second open of the same
  // file, even in this process, is another holder.
  absl::StatusOr<HostLock> second = HostLock::Acquire(path, 0);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(second.status().message().find(absl::StrFormat("pid %d", getpid())), std::string::npos)
      << second.status();
}

TEST(HostLock, ReleasedWhenTheLastOwnerGoes) {
  const std::string path = LockPath("released.lock");
  absl::StatusOr<HostLock> first = HostLock::Acquire(path, 0);
  ASSERT_TRUE(first.ok()) << first.status();
  {
    HostLock moved = std::move(*first);  // the moved-from object releases nothing
    EXPECT_FALSE(HostLock::Acquire(path, 0).ok());
  }
  EXPECT_TRUE(HostLock::Acquire(path, 0).ok());
}

TEST(HostLock, AHolderThatDiesWithoutCleanUpFreesIt) {
  const std::string path = LockPath("died.lock");
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    absl::StatusOr<HostLock> held = HostLock::Acquire(path, 0);
    const char c = held.ok() ? 'y' : 'n';
    ssize_t unused = write(ready[1], &c, 1);
    (void)unused;
    timespec ts{0, 300'000'000};
    nanosleep(&ts, nullptr);
    _exit(0);  // no destructor runs; the kernel drops the flock
  }
  char c = 0;
  ASSERT_EQ(read(ready[0], &c, 1), 1);
  ASSERT_EQ(c, 'y');
  EXPECT_FALSE(HostLock::Acquire(path, 0).ok());
  // Waiting (up to 10 s) outlasts the holder's 0.3 s.
  EXPECT_TRUE(HostLock::Acquire(path, 10).ok());
  int st = 0;
  waitpid(pid, &st, 0);
  close(ready[0]);
  close(ready[1]);
}

TEST(HostLock, AnUnopenablePathIsAnError) {
  absl::StatusOr<HostLock> l = HostLock::Acquire(LockPath("no/such/dir/x.lock"), 0);
  ASSERT_FALSE(l.ok());
  EXPECT_NE(l.status().message().find("cannot open"), std::string::npos) << l.status();
}

}  // namespace
}  // namespace sendsim::netdev
