list(APPEND STEPLINT_RULE_SOURCES
  src/job/rank_findings.cpp
  src/job/registry.cpp
  src/job/sl701_straggler_rank.cpp
  src/job/sl702_load_imbalance.cpp
  src/job/sl703_time_lost_at_collectives.cpp
)
