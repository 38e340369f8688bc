#include "record_output.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "steplint/trace/trace_file_names.h"
#include "steplint/trace/trace_head.h"

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

constexpr std::string_view kPartialSuffix = ".partial";

bool endsWith(std::string_view text, std::string_view end) {
  return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
}

/// The rank of a "rank<N>" tag, else -1.
long rankOfTag(const std::string& tag) {
  if (tag.size() < 5 || tag.compare(0, 4, "rank") != 0) return -1;
  if (!std::all_of(tag.begin() + 4, tag.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return -1;
  return std::strtol(tag.c_str() + 4, nullptr, 10);
}

/// Main first, then ranks by number, then other processes by tag.
bool tagBefore(const std::string& a, const std::string& b) {
  const long ra = rankOfTag(a), rb = rankOfTag(b);
  const int ka = a.empty() ? 0 : ra >= 0 ? 1 : 2, kb = b.empty() ? 0 : rb >= 0 ? 1 : 2;
  if (ka != kb) return ka < kb;
  return ka == 1 ? ra < rb : a < b;
}

}  // namespace

bool StagedTrace::isRank() const { return rankOfTag(tag) >= 0; }

TraceStaging::~TraceStaging() {
  if (!staging_.empty()) {
    for (const std::string& tag : stagedTags()) {
      const std::string staged = tag.empty() ? staging_ : trace::processTracePath(staging_, tag);
      for (const std::string& file : {staged, staged + std::string(kPartialSuffix)})
        if (std::find(keep_.begin(), keep_.end(), file) == keep_.end()) removeRegular(file);
    }
  }
  if (directory_lock_ >= 0) ::close(directory_lock_);  // releases the flock
}

bool TraceStaging::reserve(const std::string& output, std::string* error) {
  std::error_code ec;
  if (fs::path(output).filename().empty()) {  // "traces/": the trace would be named ""
    *error = output + " names a directory; -o takes the trace's file name (traces/t.json.gz)";
    return false;
  }
  output_ = output;
  if (fs::is_symlink(fs::symlink_status(output, ec))) {
    const fs::path target = fs::canonical(output, ec);  // the file the link names is replaced
    if (!ec) output_ = target.string();
  }
  if (kindAt(output_) == Kind::kOther) {
    *error =
        output + " exists and is not a regular file; steplint record writes only regular files";
    return false;
  }
  if (kindAt(output_) == Kind::kRegular && !trace::mayReplaceWithTrace(output_)) {
    *error = output +
             " exists and is not a trace; steplint record replaces only an earlier trace: "
             "choose another -o, or remove the file";
    return false;
  }
  const fs::path parent = fs::path(output_).parent_path();
  fs::create_directories(parent, ec);
  if (ec) {
    *error =
        "cannot create the directory " + parent.string() + " for " + output + ": " + ec.message();
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

std::vector<std::string> TraceStaging::stagedTags() const {
  // The staging name is "<dir>/.steplint-XXXXXX.<stem><suffix>"; a tagged one
  // "<dir>/.steplint-XXXXXX.<stem>.<tag><suffix>", each perhaps with ".partial".
  const fs::path staged(staging_);
  const std::string name = staged.filename().string();
  const std::string_view suffix = trace::traceSuffix(name);
  const std::string stem = name.substr(0, name.size() - suffix.size());
  std::vector<std::string> tags{""};
  std::error_code ec;
  for (fs::directory_iterator it(staged.parent_path(), ec), end; !ec && it != end;
       it.increment(ec)) {
    std::string file = it->path().filename().string();
    if (endsWith(file, kPartialSuffix)) file.resize(file.size() - kPartialSuffix.size());
    if (file.size() <= stem.size() + 1 + suffix.size() ||
        file.compare(0, stem.size() + 1, stem + ".") != 0 || !endsWith(file, suffix))
      continue;
    std::string tag = file.substr(stem.size() + 1, file.size() - stem.size() - 1 - suffix.size());
    if (std::find(tags.begin(), tags.end(), tag) == tags.end()) tags.push_back(std::move(tag));
  }
  std::sort(tags.begin() + 1, tags.end(), tagBefore);
  return tags;
}

StagedTrace TraceStaging::finishOne(const std::string& tag, const Recorded& records_anything) {
  StagedTrace result;
  result.tag = tag;
  const std::string staged = tag.empty() ? staging_ : trace::processTracePath(staging_, tag);
  result.staged = staged;
  const std::string output = tag.empty() ? output_ : trace::processTracePath(output_, tag);
  const std::string staged_partial = staged + std::string(kPartialSuffix);
  if (regularSize(staged) > 0 && regularSize(output) > 0 && !records_anything(staged)) {
    // A run that failed before it recorded anything (an argument typo) keeps the earlier trace.
    result.state = StagedTrace::State::kEmpty;
    result.path = output;
    removeRegular(staged);
  } else if (regularSize(staged) >
             0) {  // the collector renamed its finished trace over the placeholder
    result.state = StagedTrace::State::kComplete;
    result.problem = moveOver(staged, output);
    result.path = result.problem.empty() ? output : staged;
    if (result.problem.empty()) removeRegular(output + ".partial");  // an older run's leftover
  } else if (regularSize(staged_partial) >= 0) {
    result.state = StagedTrace::State::kPartial;
    result.problem = moveOver(staged_partial, output + ".partial");
    result.path = result.problem.empty() ? output + ".partial" : staged_partial;
  }
  // A trace that could not be moved stays under its staging name, for the user to pick up.
  if (result.path == staged || result.path == staged_partial) keep_.push_back(result.path);
  return result;
}

std::vector<StagedTrace> TraceStaging::finish(const Recorded& records_anything) {
  directory_lock_ =
      ::open(fs::path(output_).parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory_lock_ >= 0) flock(directory_lock_, LOCK_EX);  // best effort (NFS may refuse)
  std::vector<StagedTrace> traces;
  for (const std::string& tag : stagedTags()) traces.push_back(finishOne(tag, records_anything));
  return traces;
}

}  // namespace steplint::cli
