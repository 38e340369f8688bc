#include "status_channel.h"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <iterator>

namespace steplint::collector {
namespace {

constexpr std::string_view kKindNames[] = {"not_recording", "write_failed", "stopped_early",
                                           "torch_mismatch"};

std::atomic<int> g_fd{-1};
std::atomic<uint64_t> g_inode{0};

bool isPipe(int fd, uint64_t inode) {
  struct stat st {};
  return fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) && static_cast<uint64_t>(st.st_ino) == inode;
}

}  // namespace

std::string statusChannelSpec(int fd) {
  struct stat st {};
  if (fstat(fd, &st) != 0) return {};
  return std::to_string(fd) + ":" + std::to_string(static_cast<uint64_t>(st.st_ino));
}

void openStatusChannel(std::string_view spec) noexcept {
  g_fd.store(-1);
  const std::string text(spec);
  char* end = nullptr;
  errno = 0;
  const long fd = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || errno != 0 || *end != ':' || fd < 0 || fd > INT_MAX) return;
  const char* inode_text = end + 1;
  const unsigned long long inode = std::strtoull(inode_text, &end, 10);
  if (errno != 0 || end == inode_text || *end != '\0') return;
  g_inode.store(inode);
  g_fd.store(static_cast<int>(fd));
}

void sendStatus(StatusKind kind, std::string_view text) noexcept {
  const int fd = g_fd.load();
  if (fd < 0 || !isPipe(fd, g_inode.load())) return;
  char line[PIPE_BUF];
  const std::string_view name = kKindNames[static_cast<size_t>(kind)];
  size_t n = 0;
  for (char c : name) line[n++] = c;
  line[n++] = ' ';
  for (char c : text) {
    if (n + 1 >= sizeof(line)) break;  // one write of at most PIPE_BUF bytes is atomic
    line[n++] = (c == '\n' || c == '\r') ? ' ' : c;
  }
  line[n++] = '\n';
  (void)!write(fd, line, n);  // non-blocking pipe: a full pipe drops the message
}

std::vector<StatusMessage> parseStatusMessages(std::string_view text) {
  std::vector<StatusMessage> messages;
  for (size_t newline = 0; (newline = text.find('\n')) != std::string_view::npos;
       text.remove_prefix(newline + 1)) {
    const std::string_view line = text.substr(0, newline);
    const size_t space = line.find(' ');
    const std::string_view name = line.substr(0, space);
    for (size_t k = 0; k < std::size(kKindNames); ++k) {
      if (name != kKindNames[k]) continue;
      const std::string_view rest =
          space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
      messages.push_back({static_cast<StatusKind>(k), std::string(rest)});
    }
  }
  return messages;
}

}  // namespace steplint::collector
