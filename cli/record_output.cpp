#include "record_output.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

namespace steplint::cli {
namespace {

namespace fs = std::filesystem;

enum class Kind { kMissing, kRegular, kOther };

/// What is at `path`, following links; a dangling link is kOther (a rename would replace it).
Kind kindAt(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return S_ISREG(st.st_mode) ? Kind::kRegular : Kind::kOther;
  return ::lstat(path.c_str(), &st) == 0 ? Kind::kOther : Kind::kMissing;
}

/// Size of the regular file at `path`, -1 when there is none.
off_t regularSize(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) ? st.st_size : -1;
}

void removeRegular(const std::string& path) {
  if (regularSize(path) >= 0) std::remove(path.c_str());
}

/// rename(from, to) unless something other than a regular file is at `to`; "" or the problem.
std::string moveOver(const std::string& from, const std::string& to) {
  if (kindAt(to) == Kind::kOther) return to + " exists and is not a regular file";
  if (std::rename(from.c_str(), to.c_str()) != 0)
    return "cannot rename " + from + " to " + to + ": " + std::strerror(errno);
  return {};
}

}  // namespace

TraceStaging::~TraceStaging() {
  if (!staging_.empty()) {
    if (!keep_staging_) removeRegular(staging_);
    if (!keep_partial_) removeRegular(staging_ + ".partial");
  }
  if (directory_lock_ >= 0) ::close(directory_lock_);  // releases the flock
}

bool TraceStaging::reserve(const std::string& output, std::string* error) {
  std::error_code ec;
  output_ = output;
  if (fs::is_symlink(fs::symlink_status(output, ec))) {
    const fs::path target = fs::canonical(output, ec);  // the file the link names is replaced
    if (!ec) output_ = target.string();
  }
  if (kindAt(output_) == Kind::kOther) {
    *error = output + " exists and is not a regular file; steplint record writes only regular files";
    return false;
  }
  const fs::path parent = fs::path(output_).parent_path();
  fs::create_directories(parent, ec);
  if (ec) {
    *error = "cannot create the directory " + parent.string() + " for " + output + ": " + ec.message();
    return false;
  }
  // ".steplint-XXXXXX.<name>": hidden, unique, and it ends like -o, so the collector still
  // compresses when -o ends in .gz.
  const std::string name = fs::path(output_).filename().string();
  std::string pattern = (parent / (".steplint-XXXXXX." + name)).string();
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  const int fd = mkstemps(buffer.data(), static_cast<int>(name.size() + 1));
  if (fd < 0) {
    *error = "cannot write " + output + ": cannot create a file in " + parent.string() + " (" +
             std::strerror(errno) + ")";
    return false;
  }
  ::close(fd);
  staging_ = buffer.data();
  return true;
}

StagedTrace TraceStaging::finish() {
  StagedTrace result;
  directory_lock_ = ::open(fs::path(output_).parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory_lock_ >= 0) flock(directory_lock_, LOCK_EX);  // best effort (NFS may refuse)
  const std::string staged_partial = staging_ + ".partial";
  if (regularSize(staging_) > 0) {  // the collector renamed its finished trace over the placeholder
    result.state = StagedTrace::State::kComplete;
    result.problem = moveOver(staging_, output_);
    result.path = result.problem.empty() ? output_ : staging_;
    if (result.problem.empty()) removeRegular(output_ + ".partial");  // an older run's leftover
  } else if (regularSize(staged_partial) >= 0) {
    result.state = StagedTrace::State::kPartial;
    result.problem = moveOver(staged_partial, output_ + ".partial");
    result.path = result.problem.empty() ? output_ + ".partial" : staged_partial;
  }
  // A trace that could not be moved stays under its staging name, for the user to pick up.
  keep_staging_ = result.path == staging_;
  keep_partial_ = result.path == staged_partial;
  return result;
}

}  // namespace steplint::cli
