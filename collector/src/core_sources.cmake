# Core of the collector (no torch, CUPTI or NVTX headers). Paths relative to collector/.
# Compiled once into the static, position-independent steplint_collector_core, which the
# shared library links whole and the tests link directly (the .so hides internal symbols).
# The part `steplint record` shares (the schedule parser, the status channel): no threads, no
# writer; linked by the CLI as steplint_collector_common.
set(STEPLINT_COLLECTOR_COMMON_SOURCES
  src/config.cpp
  src/process_info.cpp
  src/status_channel.cpp
)
set(STEPLINT_COLLECTOR_CORE_SOURCES
  src/api.cpp
  src/process_hooks.cpp
  src/memory_probe.cpp
  src/output_path.cpp
  src/recorder.cpp
  src/recorder_fork.cpp
  src/recorder_steps.cpp
  src/schedule.cpp
  src/thread_buffers.cpp
  src/thread_ids.cpp
  src/trace_sink.cpp
)
# Stand-ins for sources a build leaves out. Compiled with the STEPLINT_HAVE_* definitions of
# the target that uses them, so not part of the core: steplint_collector compiles it with its
# options, and steplint_collector_tests without any (every optional source absent).
set(STEPLINT_COLLECTOR_FALLBACK_SOURCES
  src/sources_fallback.cpp
)
